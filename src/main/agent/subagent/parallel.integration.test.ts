import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  latestToolResults,
  type FakeModelServer,
  type NormalizedRequest,
  type Reply
} from '../../../../testing/fake-model-server'
import type { Core } from '../../core'
import { startCoreHarness } from '../../../../testing/core-harness'
import { createMemoryPair } from '../../rpc/memory-transport'

// Branch copies go to the temp folder: one of this file's own, so that copies made meanwhile by
// tests in other files are not taken for ones left behind here.
let savedTmp: string | undefined
beforeAll(async () => {
  savedTmp = process.env.TMPDIR
  process.env.TMPDIR = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-branches-')))
})
afterAll(async () => {
  const own = os.tmpdir()
  if (savedTmp === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = savedTmp
  await rm(own, { recursive: true, force: true })
})

let fake: FakeModelServer
let core: Core

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' })

async function start(repo: boolean): Promise<string> {
  const h = await startCoreHarness({
    name: 'parallel',
    format: 'openai-compatible',
    files: { 'greeting.txt': 'hello\n' }
  })
  const workspace = h.workspace
  if (repo) {
    git(workspace, 'init', '-q')
    git(workspace, 'add', '-A')
    git(workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first')
    // Uncommitted work is part of what each branch starts from.
    await writeFile(path.join(workspace, 'notes.txt'), 'draft\n')
  }
  fake = h.fake
  core = h.core
  return workspace
}

const taskOf = (req: NormalizedRequest): string =>
  JSON.stringify(req.messages.find((m) => m.role === 'user') ?? '')

/** Each branch reads the greeting, rewrites it and adds a file; the branches run at once. */
function branchStep(req: NormalizedRequest): Reply {
  const word = /say (\w+)/.exec(taskOf(req))?.[1] ?? 'nothing'
  const replies = req.messages.filter((m) => m.role === 'assistant').length
  if (replies === 0) return { toolCalls: [{ name: 'Read', input: { path: 'greeting.txt' } }] }
  if (replies === 1) {
    return {
      toolCalls: [
        { name: 'Write', input: { path: 'greeting.txt', content: `${word}\n` } },
        { name: 'Write', input: { path: `${word}.txt`, content: `${word}\n` } }
      ]
    }
  }
  return { text: `wrote ${word}` }
}

const branchSteps = Array.from({ length: 6 }, () => branchStep)

/** Branch copies left in the temp folder (none may outlive its run). */
async function leftovers(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => name.startsWith('mecatl-branch-'))
}

describe.each([
  ['a git repository', true],
  ['a plain folder', false]
] as const)('Parallel in %s', (_name, repo) => {
  it('selects a winner whose changes are merged, and the losers leave nothing behind', async () => {
    const workspace = await start(repo)
    const before = await leftovers()
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Parallel',
            input: {
              tasks: ['say bonjour', 'say hola'],
              tools: ['Read', 'Write'],
              mode: 'select'
            }
          }
        ]
      },
      ...branchSteps,
      (req) => {
        const result = latestToolResults(req)[0]?.content ?? ''
        const runId = /Run (\w+):/.exec(result)?.[1] ?? 'none'
        return { toolCalls: [{ name: 'ParallelMerge', input: { run_id: runId, branch: 1 } }] }
      },
      { text: 'merged' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'try both greetings')
    await core.sessions.idle(session.id)

    const parallelResult = fake.chatRequests()[7] ? latestToolResults(fake.chatRequests()[7]!) : []
    expect(parallelResult[0]?.content).toContain('## Branch 0: say bonjour')
    expect(parallelResult[0]?.content).toMatch(/\+hola/)
    expect(fake.lastToolResults()[0]?.content).toMatch(/Applied branch 1 .*greeting\.txt/)

    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('hola\n')
    expect(await readFile(path.join(workspace, 'hola.txt'), 'utf8')).toBe('hola\n')
    const files = await readdir(workspace)
    expect(files).not.toContain('bonjour.txt')
    // No copy, worktree or registration of one is left.
    expect(await leftovers()).toEqual(before)
    if (repo) {
      expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
      expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('draft\n')
    }
    const card = session.transcript().find((i) => i.kind === 'tool' && i.call.name === 'Parallel')
    const display = card?.kind === 'tool' ? card.call.output?.display : undefined
    expect(display).toMatchObject({ kind: 'parallel', merged: 1, open: false })
  })
})

describe('Parallel', () => {
  it('joins every answer, applies nothing and removes every copy', async () => {
    const workspace = await start(true)
    const before = await leftovers()
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Parallel',
            input: { tasks: ['say one', 'say two'], tools: ['Read', 'Write'], mode: 'join' }
          }
        ]
      },
      ...branchSteps,
      { text: 'joined' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'both')
    await core.sessions.idle(session.id)
    const result = fake.lastToolResults()[0]?.content ?? ''
    expect(result).toContain('wrote one')
    expect(result).toContain('wrote two')
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\n')
    expect(await leftovers()).toEqual(before)
  })

  it('lets the person take a branch from the window, once', async () => {
    const workspace = await start(false)
    const before = await leftovers()
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Parallel',
            input: { tasks: ['say ciao', 'say hej'], tools: ['Read', 'Write'], mode: 'select' }
          }
        ]
      },
      ...branchSteps,
      { text: 'pick one' }
    ])
    const client = createMemoryPair(core.router, core.hub)
    const session = await client.call('session.create', { workspace })
    await client.call('session.send', { sessionId: session.id, text: 'go' })
    await core.sessions.idle(session.id)
    const { transcript } = await client.call('session.get', { sessionId: session.id })
    const card = transcript.find((i) => i.kind === 'tool' && i.call.name === 'Parallel')
    const display = card?.kind === 'tool' ? card.call.output?.display : undefined
    if (display?.kind !== 'parallel') throw new Error('no parallel display')
    expect(display.branches.map((b) => b.changes.map((c) => c.path).sort())).toEqual([
      ['ciao.txt', 'greeting.txt'],
      ['greeting.txt', 'hej.txt']
    ])
    const taken = await client.call('parallel.take', {
      sessionId: session.id,
      runId: display.runId,
      branch: 0
    })
    expect(taken.applied.sort()).toEqual(['ciao.txt', 'greeting.txt'])
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('ciao\n')
    await expect(
      client.call('parallel.take', { sessionId: session.id, runId: display.runId, branch: 1 })
    ).rejects.toThrow(/no open parallel run/)
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('ciao\n')
    expect(await leftovers()).toEqual(before)
    client.close()
  })
})

describe('a one-branch Parallel run in select mode', () => {
  const select = (input: Record<string, unknown>): Reply => ({
    toolCalls: [{ name: 'Parallel', input: { tools: ['Read', 'Write'], mode: 'select', ...input } }]
  })

  it('merges its winner back by default, checkpointed as a change of the folder', async () => {
    const workspace = await start(true)
    const before = await leftovers()
    fake.setScript([select({ tasks: ['say salut'] }), ...branchSteps.slice(0, 3), { text: 'ok' }])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'one greeting')
    await core.sessions.idle(session.id)
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('salut\n')
    expect(await readFile(path.join(workspace, 'salut.txt'), 'utf8')).toBe('salut\n')
    expect(fake.lastToolResults()[0]?.content).toMatch(
      /only branch, so its changes were applied: greeting\.txt, salut\.txt/
    )
    expect(await leftovers()).toEqual(before)
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    const card = session.transcript().find((i) => i.kind === 'tool' && i.call.name === 'Parallel')
    const call = card?.kind === 'tool' ? card.call : undefined
    expect(call).toMatchObject({ readOnly: false, state: 'done' })
    expect(call?.output?.display).toMatchObject({ kind: 'parallel', merged: 0, open: false })
    expect(call?.files?.[0]).toMatchObject({ before: expect.any(String) })
  })

  it('keeps its copy for ParallelMerge with merge: false, as a read-only call', async () => {
    const workspace = await start(false)
    fake.setScript([
      select({ tasks: ['say hallo'], merge: false }),
      ...branchSteps.slice(0, 3),
      { text: 'kept' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'keep it')
    await core.sessions.idle(session.id)
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\n')
    expect(fake.lastToolResults()[0]?.content).toMatch(/call ParallelMerge with run_id/)
    const card = session.transcript().find((i) => i.kind === 'tool' && i.call.name === 'Parallel')
    const call = card?.kind === 'tool' ? card.call : undefined
    expect(call).toMatchObject({ readOnly: true })
    expect(call?.output?.display).toMatchObject({ kind: 'parallel', merged: null, open: true })
  })

  it('does not merge a branch that did not finish', async () => {
    const workspace = await start(false)
    fake.setScript([
      {
        toolCalls: [
          {
            name: 'Parallel',
            input: { tasks: ['say nada'], tools: ['Read', 'NoSuchTool'], mode: 'select' }
          }
        ]
      },
      { text: 'nothing' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'try')
    await core.sessions.idle(session.id)
    expect(fake.lastToolResults()[0]?.content).toMatch(
      /did not finish, so nothing was applied.*ParallelMerge/s
    )
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\n')
  })

  it('never merges several winners on its own: merge: true needs a single task', async () => {
    const workspace = await start(false)
    fake.setScript([select({ tasks: ['say a', 'say b'], merge: true }), { text: 'refused' }])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'both')
    await core.sessions.idle(session.id)
    expect(fake.lastToolResults()[0]?.content).toMatch(/merge: true needs a single task/)
    // Refused before any branch ran: the parent's two requests are all the model saw.
    expect(fake.chatRequests()).toHaveLength(2)
    expect(await readFile(path.join(workspace, 'greeting.txt'), 'utf8')).toBe('hello\n')
  })
})
