import { describe, expect, it } from 'vitest'
import type { Step } from '../../../testing/fake-model-server'
import type { Core } from '../core'
import type { RpcClient } from '../rpc/memory-transport'
import { openStore } from '../store/store'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

function setup(script: Step[]): Promise<CoreHarness> {
  return startCoreHarness({ name: 'persist', script, files: { 'a.txt': 'alpha\n' } })
}

async function say(core: Core, client: RpcClient, sessionId: string, text: string): Promise<void> {
  await client.call('session.send', { sessionId, text })
  await core.sessions.idle(sessionId)
}

const readThenAnswer: Step[] = [
  { text: 'Reading it.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
  { text: 'It says alpha.' },
  { text: 'Still alpha.' }
]

describe('recorded sessions', () => {
  it('are listed, shown and continued with their whole history after a restart', async () => {
    const s = await setup(readThenAnswer)
    const created = await s.client.call('session.create', { workspace: s.workspace })
    await say(s.core, s.client, created.id, 'What is in a.txt?')
    const before = await s.client.call('session.get', { sessionId: created.id })

    await s.restart()
    const again = s
    const { sessions } = await again.client.call('session.list', { workspace: s.workspace })
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ id: created.id, title: 'What is in a.txt?' })
    expect(sessions[0]?.sizeBytes).toBeGreaterThan(0)
    const after = await again.client.call('session.get', { sessionId: created.id })
    expect(after.transcript).toEqual(before.transcript)

    await say(again.core, again.client, created.id, 'And now?')
    const resumed = s.fake.chatRequests().at(-1)
    expect(resumed?.messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user'
    ])
    expect(resumed?.messages.find((m) => m.role === 'tool')?.toolResults?.[0]?.content).toContain(
      'alpha'
    )
    const last = (await again.client.call('session.get', { sessionId: created.id })).transcript
    expect(last.at(-2)).toMatchObject({ kind: 'assistant', text: 'Still alpha.' })
  })

  it('can be renamed, searched, forked, exported and deleted', async () => {
    const s = await setup(readThenAnswer)
    const { core, client } = s
    const created = await client.call('session.create', { workspace: s.workspace })
    await say(core, client, created.id, 'What is in a.txt?')

    const renamed = await client.call('session.rename', { sessionId: created.id, title: 'Alpha' })
    expect(renamed.title).toBe('Alpha')
    const { hits } = await client.call('session.search', { workspace: s.workspace, query: 'SAYS' })
    expect(hits.map((h) => [h.session.title, h.snippet])).toEqual([['Alpha', 'It says alpha.']])
    expect(
      (await client.call('session.search', { workspace: s.workspace, query: 'zebra' })).hits
    ).toEqual([])

    const { transcript } = await client.call('session.get', { sessionId: created.id })
    const reply = transcript.find((i) => i.kind === 'assistant')
    const fork = await client.call('session.fork', {
      sessionId: created.id,
      itemKey: `assistant:${reply?.kind === 'assistant' ? reply.id : ''}`
    })
    expect(fork).toMatchObject({ title: 'Alpha (fork)', forkedFrom: created.id })
    const forked = (await client.call('session.get', { sessionId: fork.id })).transcript
    // The reply that asked for Read, the call with its result, and the turn closed as forked.
    expect(forked.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'turn-end'])
    expect(forked.at(-1)).toMatchObject({ stopReason: 'forked' })

    const jsonl = await client.call('session.export', { sessionId: created.id, format: 'jsonl' })
    const lines = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string })
    expect(lines.map((l) => l.type)).toEqual(
      expect.arrayContaining([
        'session.updated',
        'turn.started',
        'transcript.item',
        'turn.completed'
      ])
    )
    expect(jsonl.fileName).toMatch(/^alpha-[0-9a-f]{8}\.jsonl$/)
    const md = await client.call('session.export', { sessionId: created.id, format: 'md' })
    expect(md.text).toContain('# Alpha')
    expect(md.text).toContain('## You\n\nWhat is in a.txt?')
    expect(md.text).toContain('### Tool `Read`: done')

    expect(await client.call('session.delete', { sessionId: created.id })).toEqual({
      deleted: true
    })
    const listed = (await client.call('session.list', { workspace: s.workspace })).sessions
    expect(listed.map((x) => x.id)).toEqual([fork.id])
    const store = openStore(s.home)
    expect(store.sessions.events(created.id)).toEqual([])
    store.close()
  })
})
