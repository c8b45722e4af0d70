// A session's turns checkpoint its folder before the first change and after every changing call;
// each card says what its call did to the files, and the window's Rewind, Revert and Undo
// restore put them back (Shell's changes and a background job's included).
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CallFiles } from '../../shared/checkpoints'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

async function turn(h: CoreHarness, text: string, sessionId?: string): Promise<string> {
  const id = sessionId ?? (await h.client.call('session.create', { workspace: h.workspace })).id
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return id
}

const read = (h: CoreHarness, file: string): Promise<string> =>
  readFile(path.join(h.workspace, file), 'utf8')
const exists = (h: CoreHarness, file: string): boolean => existsSync(path.join(h.workspace, file))

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20))
}

async function transcript(h: CoreHarness, sessionId: string): Promise<TranscriptItem[]> {
  return (await h.client.call('session.get', { sessionId })).transcript
}

async function cards(h: CoreHarness, sessionId: string): Promise<ToolCallView[]> {
  return (await transcript(h, sessionId)).flatMap((i) => (i.kind === 'tool' ? [i.call] : []))
}

function taken(files: CallFiles | undefined): Extract<CallFiles, { before: string }> {
  if (!files || !('before' in files)) throw new Error(`not checkpointed: ${JSON.stringify(files)}`)
  return files
}

describe('checkpoints of a session’s turns', () => {
  it('say on each card what its call changed, and undo each call, Shell’s and a job’s included', async () => {
    const h = await startCoreHarness({
      name: 'turn-checkpoints',
      files: { 'notes.txt': 'alpha\n', 'old.txt': 'old\n', 'edit.txt': 'one two\n' }
    })
    h.fake.setScript([
      { toolCalls: [{ name: 'Write', input: { path: 'new.txt', content: 'written\n' } }] },
      { toolCalls: [{ name: 'Read', input: { path: 'edit.txt' } }] },
      {
        toolCalls: [{ name: 'Edit', input: { path: 'edit.txt', old: 'one', new: 'ONE' } }]
      },
      { toolCalls: [{ name: 'Shell', input: { command: "sed -i 's/alpha/ALPHA/' notes.txt" } }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'rm old.txt' } }] },
      {
        toolCalls: [
          {
            name: 'Shell',
            input: { command: 'sleep 0.3; echo late > late.txt', background: true }
          }
        ]
      },
      { text: 'done' }
    ])
    const sessionId = await turn(h, 'change things')
    await until(async () => {
      const job = (await cards(h, sessionId)).at(-1)
      return job?.files?.some((f) => f.during === 'job') === true
    })
    const [write, , edit, sed, rm, job] = await cards(h, sessionId)
    expect(taken(write?.files?.[0]).changes).toEqual([{ path: 'new.txt', change: 'created' }])
    expect(taken(edit?.files?.[0]).changes).toEqual([{ path: 'edit.txt', change: 'changed' }])
    expect(taken(sed?.files?.[0]).changes).toEqual([{ path: 'notes.txt', change: 'changed' }])
    expect(taken(rm?.files?.[0]).changes).toEqual([{ path: 'old.txt', change: 'deleted' }])
    const jobFiles = taken(job?.files?.find((f) => f.during === 'job'))
    expect(jobFiles.changes).toEqual([{ path: 'late.txt', change: 'created' }])

    // A card's diff: the file before and after its call.
    const diff = await h.client.call('checkpoints.file', {
      sessionId,
      before: taken(sed?.files?.[0]).before,
      after: taken(sed?.files?.[0]).after,
      path: 'notes.txt'
    })
    expect(diff).toEqual({ path: 'notes.txt', before: 'alpha\n', after: 'ALPHA\n', shown: 'text' })

    // Each call is undone by restoring its files to the checkpoint before it, and redone by Undo.
    for (const [card, file, before, after] of [
      [write, 'new.txt', null, 'written\n'],
      [edit, 'edit.txt', 'one two\n', 'ONE two\n'],
      [sed, 'notes.txt', 'alpha\n', 'ALPHA\n'],
      [rm, 'old.txt', 'old\n', null],
      [job, 'late.txt', null, 'late\n']
    ] as const) {
      const files = taken(card?.files?.find((f) => 'changes' in f && f.changes.length > 0))
      const undo = await h.client.call('checkpoints.restore', {
        sessionId,
        checkpoint: files.before,
        files: [file],
        replaceChanged: false,
        label: `before ${card?.name}`
      })
      expect(exists(h, file) ? await read(h, file) : null).toBe(before)
      await h.client.call('checkpoints.restore', {
        sessionId,
        checkpoint: undo.undo,
        files: [file],
        replaceChanged: false,
        label: 'the restore undone'
      })
      expect(exists(h, file) ? await read(h, file) : null).toBe(after)
    }
    // Every restore is in the transcript, with the checkpoint that undoes it.
    const restores = (await transcript(h, sessionId)).filter((i) => i.kind === 'restore')
    expect(restores).toHaveLength(10)
    expect(restores[0]).toMatchObject({ label: 'before Write', changes: [{ path: 'new.txt' }] })
  })

  it('rewinds the files to before a message, and asks before replacing a file changed outside', async () => {
    const h = await startCoreHarness({ name: 'turn-rewind', files: { 'a.txt': 'one\n' } })
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: 'echo two > a.txt; echo x > b.txt' } }] },
      { text: 'changed' },
      { toolCalls: [{ name: 'Shell', input: { command: 'echo three > a.txt' } }] },
      { text: 'changed again' }
    ])
    const sessionId = await turn(h, 'first')
    await turn(h, 'second', sessionId)
    const first = (await transcript(h, sessionId)).find((i) => i.kind === 'user')
    const key = `user:${first?.kind === 'user' ? first.id : ''}`
    // Someone edits b.txt in an editor after the agent's last change.
    await writeFile(path.join(h.workspace, 'b.txt'), 'mine\n')
    const plan = await h.client.call('checkpoints.plan', { sessionId, to: { message: key } })
    expect(plan.changes.map((c) => `${c.change} ${c.path}`).sort()).toEqual([
      'changed a.txt',
      'created b.txt'
    ])
    expect(plan.conflicts).toEqual(['b.txt'])
    const restore = {
      sessionId,
      checkpoint: plan.checkpoint ?? '',
      replaceChanged: false,
      label: 'before “first”'
    }
    await expect(h.client.call('checkpoints.restore', restore)).rejects.toThrow(/b\.txt/)
    expect(await read(h, 'b.txt')).toBe('mine\n')
    const undo = await h.client.call('checkpoints.restore', { ...restore, replaceChanged: true })
    expect(await read(h, 'a.txt')).toBe('one\n')
    expect(exists(h, 'b.txt')).toBe(false)
    // Undo restore brings back the newer state, the person's own edit included.
    await h.client.call('checkpoints.restore', {
      ...restore,
      checkpoint: undo.undo,
      label: 'undo'
    })
    expect(await read(h, 'a.txt')).toBe('three\n')
    expect(await read(h, 'b.txt')).toBe('mine\n')
  })

  it('names a job still running in the folder, and deleting the session can drop its checkpoints', async () => {
    const h = await startCoreHarness({ name: 'turn-rewind-job', files: { 'a.txt': 'one\n' } })
    h.fake.setScript([
      { toolCalls: [{ name: 'Shell', input: { command: 'echo two > a.txt' } }] },
      { toolCalls: [{ name: 'Shell', input: { command: 'sleep 30', background: true } }] },
      { text: 'started' }
    ])
    const sessionId = await turn(h, 'change and watch')
    const first = (await transcript(h, sessionId)).find((i) => i.kind === 'user')
    expect(first?.kind === 'user' && first.checkpoint).toBeTruthy()
    const plan = await h.client.call('checkpoints.plan', {
      sessionId,
      to: { message: `user:${first?.kind === 'user' ? first.id : ''}` }
    })
    expect(plan.changes).toEqual([{ path: 'a.txt', change: 'changed' }])
    expect(plan.runningJobs).toEqual([{ id: expect.any(String), command: 'sleep 30' }])
    // An id is a commit id, never a git expression or an option git would act on.
    for (const id of ['HEAD~1', '--output=/tmp/x', 'a'.repeat(39), `${'a'.repeat(40)} `]) {
      await expect(
        h.client.call('checkpoints.restore', {
          sessionId,
          checkpoint: id,
          replaceChanged: true,
          label: 'x'
        })
      ).rejects.toThrow(/checkpoint id/)
    }

    const store = h.core.checkpoints.store(h.workspace)
    const before = (await store.list()).length
    expect(before).toBeGreaterThanOrEqual(2)
    await h.client.call('session.delete', { sessionId, checkpoints: true })
    await h.core.checkpoints.settled()
    // Only the folder's newest stays: what the next change is compared with.
    expect((await store.list()).map((c) => c.sessionId)).toEqual([sessionId])
  })

  it('a checkpoint that cannot be taken leaves the turn working, and the card says why', async () => {
    const h = await startCoreHarness({ name: 'turn-checkpoints-fail' })
    // Nothing can be made where the stores go, as on a read-only or broken disk (a chmod would
    // not stop root, who runs CI).
    await mkdir(h.home, { recursive: true })
    await writeFile(path.join(h.home, 'checkpoints'), 'in the way\n')
    h.fake.setScript([
      { toolCalls: [{ name: 'Write', input: { path: 'new.txt', content: 'written\n' } }] },
      { text: 'done anyway' }
    ])
    const sessionId = await turn(h, 'write it')
    expect(await read(h, 'new.txt')).toBe('written\n')
    expect(h.fake.chatRequests()).toHaveLength(2)
    const [write] = await cards(h, sessionId)
    expect(write?.state).toBe('done')
    const files = write?.files?.[0]
    expect(files && 'failed' in files ? files.failed : null).toMatch(
      /EEXIST|ENOTDIR|not a directory|file already exists/i
    )
  })
})
