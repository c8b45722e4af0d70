// Delegation runs alongside reads: a Subagent call whose child can only read, and a Parallel call
// whose branches write only to their copies, are read-only for the dispatcher and the gate (they
// run beside the step's other reads, are not asked about in ask mode, are offered and run in
// planning mode), while a call that will change the session's own folder is mutating for that call.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolCallView } from '../../../shared/domain'
import type { ApprovalRequest } from '../../../shared/approvals'
import type { Core } from '../../core'
import { createMemoryPair } from '../../rpc/memory-transport'
import { startCoreHarness } from '../../../../testing/core-harness'
import type { FakeModelServer, NormalizedRequest } from '../../../../testing/fake-model-server'
import type { Session } from '../session'

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

async function start(
  options: { permissions?: 'allow' | 'ask'; settings?: Record<string, unknown> } = {},
  interactive = false
): Promise<string> {
  const h = await startCoreHarness({
    name: 'read-parallel',
    format: 'openai-compatible',
    files: { 'greeting.txt': 'hello\n' },
    ...options,
    core: { interactive }
  })
  fake = h.fake
  core = h.core
  return h.workspace
}

const cards = (session: Session): ToolCallView[] =>
  session.transcript().flatMap((i) => (i.kind === 'tool' ? [i.call] : []))

const isChild = (req: NormalizedRequest): boolean => req.system.includes('You are a sub-agent')

const join = (task: string): { name: string; input: unknown } => ({
  name: 'Parallel',
  input: { tasks: [task], tools: ['Read'], mode: 'join' }
})

/** A one-branch select run: it merges its branch into the folder, so this call is mutating. */
const merging = { name: 'Parallel', input: { tasks: ['write'], tools: ['Write'], mode: 'select' } }

async function leftovers(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => name.startsWith('mecatl-branch-'))
}

describe('a Subagent call', () => {
  /** The parent's Subagent and Read cards as they were when the child first asked the model. */
  async function whileChildWorks(
    tools: string[]
  ): Promise<{ read?: ToolCallView; subagent?: ToolCallView; done: ToolCallView[] }> {
    const workspace = await start()
    const session = await core.sessions.create(workspace)
    let seen: { read?: ToolCallView; subagent?: ToolCallView } = {}
    fake.setScript([
      {
        toolCalls: [
          { name: 'Subagent', input: { task: 'think', tools } },
          { name: 'Read', input: { path: 'greeting.txt' } }
        ]
      },
      (req) => {
        const now = cards(session)
        seen = {
          read: now.find((c) => c.name === 'Read'),
          subagent: now.find((c) => c.name === 'Subagent')
        }
        return { text: isChild(req) ? 'thought' : 'wrong request' }
      },
      { text: 'done' }
    ])
    await core.sessions.send(session.id, 'think and read')
    await core.sessions.idle(session.id)
    return { ...seen, done: cards(session) }
  }

  it('with read-only tools starts beside a Read of the same step', async () => {
    const { read, subagent, done } = await whileChildWorks(['Read', 'Grep'])
    expect(subagent).toMatchObject({ state: 'running', endedAt: null, readOnly: true })
    expect(read?.startedAt).not.toBeNull()
    const finished = done.find((c) => c.name === 'Subagent')
    expect(done.find((c) => c.name === 'Read')?.startedAt ?? Infinity).toBeLessThanOrEqual(
      finished?.endedAt ?? -1
    )
    expect(finished?.files).toBeUndefined()
  })

  it('given a tool that writes in the folder runs alone, as a change', async () => {
    const { read, subagent, done } = await whileChildWorks(['Read', 'Write'])
    expect(subagent).toMatchObject({ state: 'running', readOnly: false })
    // The Read waits for the change to finish, as after any mutating call.
    expect(read?.startedAt).toBeNull()
    const finished = done.find((c) => c.name === 'Subagent')
    expect(done.find((c) => c.name === 'Read')?.startedAt ?? -1).toBeGreaterThanOrEqual(
      finished?.endedAt ?? Infinity
    )
    expect(finished?.files).toBeDefined()
  })
})

describe('a read-only Parallel call', () => {
  it('starts beside a Read of the same step: the Read runs while the branch is at work', async () => {
    const workspace = await start()
    const session = await core.sessions.create(workspace)
    let seen: { read?: ToolCallView; parallel?: ToolCallView } = {}
    fake.setScript([
      {
        toolCalls: [join('look at the greeting'), { name: 'Read', input: { path: 'greeting.txt' } }]
      },
      (req) => {
        // The branch's child is asking the model: the Parallel call is running right now.
        const now = cards(session)
        seen = {
          read: now.find((c) => c.name === 'Read'),
          parallel: now.find((c) => c.name === 'Parallel')
        }
        return { text: isChild(req) ? 'it says hello' : 'wrong request' }
      },
      { text: 'done' }
    ])
    await core.sessions.send(session.id, 'look twice')
    await core.sessions.idle(session.id)

    // Given after the Parallel call, the Read had already started while the Parallel ran.
    expect(seen.parallel).toMatchObject({ state: 'running', endedAt: null })
    expect(seen.read?.startedAt).not.toBeNull()
    expect(seen.parallel?.readOnly).toBe(true)
    const done = cards(session)
    const parallel = done.find((c) => c.name === 'Parallel')
    const read = done.find((c) => c.name === 'Read')
    expect(read?.startedAt ?? Infinity).toBeLessThanOrEqual(parallel?.endedAt ?? -1)
    expect(parallel).toMatchObject({ state: 'done', readOnly: true })
    // Nothing of the folder changed, so no checkpoint was taken for it.
    expect(parallel?.files).toBeUndefined()
    expect(fake.lastToolResults().map((r) => r.isError)).toEqual([false, false])
  })

  it('runs in ask mode with nobody to ask; a merging one is asked about and refused', async () => {
    const workspace = await start({ permissions: 'ask' })
    const session = await core.sessions.create(workspace)
    fake.setScript([
      { toolCalls: [join('read the greeting')] },
      (req) => ({
        // The child's Read is read-only too, so nothing needs a person.
        toolCalls: isChild(req) ? [{ name: 'Read', input: { path: 'greeting.txt' } }] : []
      }),
      { text: 'hello it is' },
      { toolCalls: [merging] },
      { text: 'stopped' }
    ])
    await core.sessions.send(session.id, 'go')
    await core.sessions.idle(session.id)
    const [joined, merged] = cards(session).filter((c) => c.name === 'Parallel')
    expect(joined).toMatchObject({ state: 'done', readOnly: true, refusedBy: null })
    expect(merged).toMatchObject({ state: 'denied', readOnly: false, refusedBy: 'approver' })
  })

  it('is offered and runs in planning mode, where a merging one is refused', async () => {
    const workspace = await start()
    const session = await core.sessions.create(workspace)
    core.sessions.setPlanning(session.id, true)
    let offered: string[] = []
    fake.setScript([
      (req) => {
        offered = req.tools
        return { toolCalls: [join('plan from the greeting')] }
      },
      { text: 'plan: greet' },
      { toolCalls: [merging] },
      { text: 'proposed instead' }
    ])
    await core.sessions.send(session.id, 'plan it')
    await core.sessions.idle(session.id)
    expect(offered).toEqual(expect.arrayContaining(['Parallel', 'Subagent', 'Read']))
    for (const absent of ['ParallelMerge', 'Team', 'Write']) expect(offered).not.toContain(absent)
    const [joined, merged] = cards(session).filter((c) => c.name === 'Parallel')
    expect(joined).toMatchObject({ state: 'done', refusedBy: null })
    expect(merged).toMatchObject({ refusedBy: 'planning' })
    expect(merged?.output?.content[0]).toMatchObject({
      text: expect.stringMatching(/^This Parallel call changes things/)
    })
  })

  it('runs beside another in the same git repository, and neither leaves a copy behind', async () => {
    const workspace = await start()
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: workspace, encoding: 'utf8' })
    git('init', '-q')
    git('add', '-A')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first')
    const before = await leftovers()
    const session = await core.sessions.create(workspace)
    const startedWhileFirstRan: (number | null)[] = []
    fake.setScript([
      { toolCalls: [join('first look'), join('second look')] },
      () => {
        // Whichever branch asks first, both runs have started and neither has ended.
        const runs = cards(session).filter((c) => c.name === 'Parallel')
        startedWhileFirstRan.push(...runs.map((c) => (c.endedAt === null ? c.startedAt : null)))
        return { text: 'one' }
      },
      { text: 'two' },
      { text: 'both seen' }
    ])
    await core.sessions.send(session.id, 'look in two ways')
    await core.sessions.idle(session.id)
    expect(startedWhileFirstRan).toHaveLength(2)
    expect(startedWhileFirstRan.every((at) => at !== null)).toBe(true)
    expect(fake.lastToolResults().map((r) => r.isError)).toEqual([false, false])
    expect(await leftovers()).toEqual(before)
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  })

  it('shows the person it is read-only when a rule asks about it anyway', async () => {
    const workspace = await start(
      {
        settings: {
          permissions: { mode: 'allow', rules: [{ tool: 'Parallel', decision: 'prompt' }] }
        }
      },
      true
    )
    const client = createMemoryPair(core.router, core.hub)
    const asked: ApprovalRequest[] = []
    client.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as ApprovalRequest
      asked.push(request)
      void client.call('approval.respond', { approvalId: request.approvalId, decision: 'allow' })
    })
    const session = await core.sessions.create(workspace)
    fake.setScript([{ toolCalls: [join('read it')] }, { text: 'read' }, { text: 'done' }])
    await core.sessions.send(session.id, 'go')
    await core.sessions.idle(session.id)
    expect(asked.map((a) => [a.tool, a.readOnly])).toEqual([['Parallel', true]])
    client.close()
  })
})
