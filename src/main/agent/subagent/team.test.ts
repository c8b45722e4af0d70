import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  latestToolResults,
  type FakeModelServer,
  type NormalizedRequest
} from '../../testing/fake-model-server'
import type { ApprovalRequest } from '../../../shared/domain'
import type { Core } from '../../core'
import { startCoreHarness } from '../../testing/core-harness'
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
