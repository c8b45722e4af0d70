import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  latestToolResults,
  type FakeModelServer,
  type NormalizedRequest
} from '../../../../testing/fake-model-server'
import type { ApprovalRequest } from '../../../shared/approvals'
import type { Core } from '../../core'
import { startCoreHarness } from '../../../../testing/core-harness'
import { createMemoryPair } from '../../rpc/memory-transport'

let fake: FakeModelServer
let core: Core

async function start(mode: 'allow' | 'ask'): Promise<string> {
  const h = await startCoreHarness({
    name: 'team',
    format: 'openai-compatible',
    permissions: mode,
    settings: {
      subagents: [
        { name: 'scout', description: 'Looks around.', tools: [] },
        { name: 'critic', description: 'Finds faults.', tools: [] },
        { name: 'editor', description: 'Writes reports.', tools: [] },
        { name: 'writer', description: 'Writes files.', tools: ['Write'] }
      ],
      teams: [{ name: 'crew', lead: 'editor', members: ['scout', 'critic'] }]
    },
    core: { interactive: true }
  })
  fake = h.fake
  core = h.core
  return h.workspace
}

const agentOf = (req: NormalizedRequest): string =>
  /sub-agent named "(\w+)"/.exec(req.system)?.[1] ?? 'parent'

describe('a team', () => {
  it('runs its members, then the lead writes one report from their answers', async () => {
    const workspace = await start('allow')
    const lead: NormalizedRequest[] = []
    fake.setScript([
      { toolCalls: [{ name: 'Team', input: { team: 'crew', task: 'review the plan' } }] },
      (req) => ({ text: agentOf(req) === 'scout' ? 'the plan has 3 steps' : 'wrong' }),
      (req) => ({ text: agentOf(req) === 'critic' ? 'step 2 is risky' : 'wrong' }),
      (req) => {
        lead.push(req)
        return { text: agentOf(req) === 'editor' ? 'Report: 3 steps, step 2 risky' : 'wrong' }
      },
      (req) => ({ text: `parent got: ${latestToolResults(req)[0]?.content}` })
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'team up')
    await core.sessions.idle(session.id)
    const leadTask = JSON.stringify(lead[0]?.messages)
    expect(leadTask).toContain('the plan has 3 steps')
    expect(leadTask).toContain('step 2 is risky')
    expect(fake.lastToolResults()[0]?.content).toBe('Report: 3 steps, step 2 risky')
    const card = session.transcript().find((i) => i.kind === 'tool' && i.call.name === 'Team')
    expect(card?.kind === 'tool' && card.call).toMatchObject({ state: 'done', readOnly: false })
  })
})

describe('a sub-agent asking for approval', () => {
  it('asks the same approver, on the parent session, saying which sub-agent asks', async () => {
    const workspace = await start('ask')
    fake.setScript([
      { toolCalls: [{ name: 'Agent_writer', input: { task: 'write a note' } }] },
      { toolCalls: [{ name: 'Write', input: { path: 'note.txt', content: 'hi\n' } }] },
      { text: 'written' },
      { text: 'done' }
    ])
    const client = createMemoryPair(core.router, core.hub)
    const asked: ApprovalRequest[] = []
    client.subscribe((frame) => {
      if (frame.event !== 'approval.requested') return
      const request = frame.payload as ApprovalRequest
      asked.push(request)
      void client.call('approval.respond', { approvalId: request.approvalId, decision: 'allow' })
    })
    const session = await client.call('session.create', { workspace })
    await client.call('session.send', { sessionId: session.id, text: 'note' })
    await core.sessions.idle(session.id)
    expect(asked.map((a) => a.tool)).toEqual(['Agent_writer', 'Write'])
    expect(asked[1]).toMatchObject({ sessionId: session.id })
    expect(asked[1]?.reason).toMatch(/^the sub-agent "writer" wants to run it/)
    expect(await readFile(path.join(workspace, 'note.txt'), 'utf8')).toBe('hi\n')
    client.close()
  })
})

describe('an ad-hoc team, with no team configured', () => {
  async function startBare(): Promise<string> {
    const h = await startCoreHarness({
      name: 'team-adhoc',
      format: 'openai-compatible',
      files: { 'plan.md': 'step 1\nstep 2\n' }
    })
    fake = h.fake
    core = h.core
    return h.workspace
  }

  const crew = {
    task: 'review the plan',
    members: [
      { role: 'reader', tools: ['Read'] },
      { role: 'skeptic', tools: [] }
    ],
    lead: { role: 'editor', tools: [] }
  }

  it('is offered, and runs the crew given in the call under its lead', async () => {
    const workspace = await startBare()
    const seen: Record<string, NormalizedRequest> = {}
    fake.setScript([
      (req) => {
        seen.parent = req
        return { toolCalls: [{ name: 'Team', input: crew }] }
      },
      (req) => {
        seen.reader = req
        return { toolCalls: [{ name: 'Read', input: { path: 'plan.md' } }] }
      },
      { text: 'the plan has 2 steps' },
      (req) => {
        seen.skeptic = req
        return { text: 'step 2 is vague' }
      },
      (req) => {
        seen.editor = req
        return { text: 'Report: 2 steps, the second vague' }
      },
      { text: 'reported' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'review')
    await core.sessions.idle(session.id)
    expect(seen.parent?.tools).toContain('Team')
    expect(agentOf(seen.reader!)).toBe('reader')
    expect(seen.reader?.tools).toEqual(['Read'])
    expect(agentOf(seen.skeptic!)).toBe('skeptic')
    expect(seen.skeptic?.tools).toEqual([])
    expect(agentOf(seen.editor!)).toBe('editor')
    const leadTask = JSON.stringify(seen.editor?.messages)
    expect(leadTask).toContain('the plan has 2 steps')
    expect(leadTask).toContain('step 2 is vague')
    expect(fake.lastToolResults()[0]?.content).toBe('Report: 2 steps, the second vague')
    const card = session.transcript().find((i) => i.kind === 'tool' && i.call.name === 'Team')
    expect(card?.kind === 'tool' && card.call).toMatchObject({ state: 'done', readOnly: false })
  })

  it('refuses a crew asking for a tool it cannot have before any member runs', async () => {
    const workspace = await startBare()
    const bad = { ...crew, members: [{ role: 'reader', tools: ['Read', 'Subagent'] }] }
    fake.setScript([{ toolCalls: [{ name: 'Team', input: bad }] }, { text: 'no team' }])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'review')
    await core.sessions.idle(session.id)
    expect(fake.chatRequests()).toHaveLength(2)
    expect(fake.lastToolResults()[0]?.content).toMatch(
      /^Team did not start: .*cannot be given to a sub-agent here: Subagent .*member "reader" asks for Subagent/
    )
  })

  it('runs two teams of one step one after the other', async () => {
    const workspace = await startBare()
    const solo = (role: string): unknown => ({
      task: `work as ${role}`,
      members: [{ role, tools: [] }],
      lead: { role: `${role}lead`, tools: [] }
    })
    fake.setScript([
      {
        toolCalls: [
          { name: 'Team', input: solo('first') },
          { name: 'Team', input: solo('second') }
        ]
      },
      ...Array.from({ length: 4 }, () => (req: NormalizedRequest) => ({ text: agentOf(req) })),
      { text: 'both' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'two teams')
    await core.sessions.idle(session.id)
    expect(fake.chatRequests().slice(1, 5).map(agentOf)).toEqual([
      'first',
      'firstlead',
      'second',
      'secondlead'
    ])
  })
})

describe('a configured team', () => {
  it('is offered by name beside ad-hoc crews, and refuses a call giving both', async () => {
    const workspace = await start('allow')
    fake.setScript([
      {
        toolCalls: [
          { name: 'Team', input: { team: 'crew', task: 'x', members: [{ role: 'a', tools: [] }] } }
        ]
      },
      { text: 'refused' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'both ways')
    await core.sessions.idle(session.id)
    expect(fake.lastToolResults()[0]?.content).toMatch(/either `team`.*or `members` and `lead`/)
  })
})
