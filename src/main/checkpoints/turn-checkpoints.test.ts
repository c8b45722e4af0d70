// A session's turns checkpoint its folder: before the first change and after each changing step,
// so a restore to the checkpoint before a turn undoes what its calls did, Shell's included.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCoreHarness, type CoreHarness } from '../testing/core-harness'
import { ShadowStore } from './shadow-store'

async function turn(h: CoreHarness, text: string): Promise<string> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return id
}

const read = (h: CoreHarness, file: string): Promise<string> =>
  readFile(path.join(h.workspace, file), 'utf8')

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
}

describe('checkpoints of a session’s turns', () => {
  it('undo a Write, a sed -i, an rm and a background job’s file, and redo them', async () => {
    const h = await startCoreHarness({
      name: 'turn-checkpoints',
      files: { 'notes.txt': 'alpha\n', 'old.txt': 'old\n' }
    })
    h.fake.setScript([
      { toolCalls: [{ name: 'Write', input: { path: 'new.txt', content: 'written\n' } }] },
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
    await until(() => existsSync(path.join(h.workspace, 'late.txt')))
    expect(await read(h, 'notes.txt')).toBe('ALPHA\n')

    const store = h.core.checkpoints.store(h.workspace)
    const list = await store.list()
    const before = list.find((c) => c.reason.startsWith('before the first change'))
    expect(before?.sessionId).toBe(sessionId)
    // One before the turn's first change, one after each of its four changing steps.
    expect(list.filter((c) => c.sessionId === sessionId).length).toBeGreaterThanOrEqual(4)

    const undo = await store.restore(before!.id)
    expect(existsSync(path.join(h.workspace, 'new.txt'))).toBe(false)
    expect(existsSync(path.join(h.workspace, 'late.txt'))).toBe(false)
    expect(await read(h, 'notes.txt')).toBe('alpha\n')
    expect(await read(h, 'old.txt')).toBe('old\n')

    await store.restore(undo.id)
    expect(await read(h, 'new.txt')).toBe('written\n')
    expect(await read(h, 'late.txt')).toBe('late\n')
    expect(existsSync(path.join(h.workspace, 'old.txt'))).toBe(false)
  })

  it('a checkpoint that cannot be taken leaves the turn working', async () => {
    const h = await startCoreHarness({ name: 'turn-checkpoints-fail' })
    // Where the stores go is a file: nothing can be made there, as on a broken disk.
    await mkdir(h.home, { recursive: true })
    await writeFile(path.join(h.home, 'checkpoints'), 'in the way\n')
    h.fake.setScript([
      { toolCalls: [{ name: 'Write', input: { path: 'new.txt', content: 'written\n' } }] },
      { text: 'done anyway' }
    ])
    await turn(h, 'write it')
    expect(await read(h, 'new.txt')).toBe('written\n')
    expect(h.fake.chatRequests()).toHaveLength(2)
    await expect(
      new ShadowStore({ root: path.join(h.home, 'checkpoints'), workspace: h.workspace }).list()
    ).rejects.toThrow()
  })
})
