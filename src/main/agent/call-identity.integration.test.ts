// A model server that reuses tool-call ids (some local servers number calls per reply, some send
// none at all) must not make one call stand for another: each call is its own item in the
// window, the record and the history, and the ids sent back pair every result with its call.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { exportSession } from './session-export'

function calls(transcript: readonly TranscriptItem[]): ToolCallView[] {
  return transcript.flatMap((item) => (item.kind === 'tool' ? [item.call] : []))
}

async function say(h: CoreHarness, sessionId: string, text: string): Promise<void> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
}

/** Every reply names its calls `call_0` (twice in the first), or sends no id at all. */
const reusing: Step[] = [
  {
    text: 'Writing two files.',
    toolCalls: [
      { id: 'call_0', name: 'Write', input: { path: 'one.txt', content: 'one\n' } },
      { id: 'call_0', name: 'Write', input: { path: 'two.txt', content: 'two\n' } }
    ]
  },
  { toolCalls: [{ id: 'call_0', name: 'Read', input: { path: 'one.txt' } }] },
  { text: 'Wrote both.' },
  {
    toolCalls: [
      { id: 'call_0', name: 'Write', input: { path: 'three.txt', content: 'three\n' } },
      { id: '', name: 'Read', input: { path: 'two.txt' } },
      { id: '', name: 'Read', input: { path: 'three.txt' } }
    ]
  },
  { text: 'Wrote the third.' }
]

describe.each(['openai', 'anthropic'] as const)('calls over the %s format', (format) => {
  it('stay one item each when the server reuses or omits ids, live and after a restart', async () => {
    const h = await startCoreHarness({ name: 'call-ids', format, script: reusing })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await say(h, session.id, 'write one and two')
    await say(h, session.id, 'and three')

    const live = (await h.client.call('session.get', { sessionId: session.id })).transcript
    const shown = calls(live)
    expect(shown.map((c) => [c.name, c.state])).toEqual([
      ['Write', 'done'],
      ['Write', 'done'],
      ['Read', 'done'],
      ['Write', 'done'],
      ['Read', 'done'],
      ['Read', 'done']
    ])
    expect(new Set(shown.map((c) => c.id)).size).toBe(6)
    for (const name of ['one', 'two', 'three']) {
      expect(await readFile(path.join(h.workspace, `${name}.txt`), 'utf8')).toBe(`${name}\n`)
    }
    // The window saw each call as its own card, every update of it under one id.
    const cardIds = new Set(
      h.events.flatMap((e) => {
        const item = (e.payload as { item?: TranscriptItem }).item
        return e.event === 'transcript.item' && item?.kind === 'tool' ? [item.call.id] : []
      })
    )
    expect(cardIds).toEqual(new Set(shown.map((c) => c.id)))

    // Results pair with their calls by wire ids unique within each reply.
    const requests = h.fake.chatRequests()
    const first = latestToolResults(requests[1]!)
    expect(first.map((r) => r.toolCallId)).toEqual(['call_0', 'call_0_2'])
    expect(first.map((r) => r.content)).toEqual([
      expect.stringContaining('one.txt'),
      expect.stringContaining('two.txt')
    ])
    const asked = requests[1]!.messages.findLast((m) => m.role === 'assistant')
    expect(asked?.toolCalls?.map((c) => c.id)).toEqual(['call_0', 'call_0_2'])
    const third = latestToolResults(requests[4]!)
    expect(third.map((r) => r.content)).toEqual([
      expect.stringContaining('three.txt'),
      expect.stringContaining('two'),
      expect.stringContaining('three')
    ])
    const wire = third.map((r) => r.toolCallId ?? '')
    expect(new Set(wire).size).toBe(3)
    for (const id of wire) expect(id).toMatch(/^[A-Za-z0-9_-]+$/)

    // The record holds every call, and a restart shows and continues the same conversation.
    await h.restart()
    const stored = (await h.client.call('session.get', { sessionId: session.id })).transcript
    expect(stored).toEqual(live)
    h.fake.setScript([{ text: 'Still here.' }])
    await say(h, session.id, 'anything else?')
    const resumed = h.fake.chatRequests().at(-1)!
    const results = resumed.messages.flatMap((m) => m.toolResults ?? [])
    expect(results).toHaveLength(6)
    expect(results.map((r) => r.toolCallId)).toEqual(['call_0', 'call_0_2', 'call_0', ...wire])

    const row = h.core.store.sessions.get(session.id)!
    const markdown = exportSession(row, h.core.store.sessions.events(session.id), 'md')
    expect(markdown.match(/^### Tool `Write`: done$/gm)).toHaveLength(3)
    expect(markdown.match(/^### Tool `Read`: done$/gm)).toHaveLength(3)
  })
})
