import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { latestToolResults, type Step } from '../../../testing/fake-model-server'
import { fakeSignature } from '../../../testing/fake-model-thinking'

// Extended thinking over the Anthropic wire format, asserted in what the fake API receives: the
// budget is asked for, and in a tool-use turn the thinking goes back first in the assistant
// message, text and signature unchanged (the fake refuses otherwise, as the API does).

const THOUGHT = 'The person wants a.txt; reading it first is cheapest. Ünïcødé and "quotes" stay.'

const readThenAnswer: Step[] = [
  {
    thinking: [THOUGHT, 'redacted'],
    text: 'Reading a.txt.',
    toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }],
    usage: { input: 100, output: 640 }
  },
  (req) => ({
    thinking: ['It says alpha.'],
    text: `It says ${latestToolResults(req)[0]?.content.includes('alpha') ? 'alpha' : '?'}.`
  })
]

async function withThinking(h: CoreHarness, budget: number): Promise<void> {
  const { settings } = await h.client.call('settings.get', {})
  const raw = settings as { providers: Record<string, unknown>[] }
  const saved = await h.client.call('settings.save', {
    settings: {
      ...raw,
      providers: raw.providers.map((p) => ({
        ...p,
        reasoning: { 'fake-model': { thinking_budget: budget } }
      }))
    }
  })
  expect(saved).toEqual({ saved: true, issues: [] })
}

async function turn(
  h: CoreHarness,
  text: string
): Promise<{ id: string; items: TranscriptItem[] }> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: id, text })
  await h.core.sessions.idle(id)
  return { id, items: (await h.client.call('session.get', { sessionId: id })).transcript }
}

type Body = {
  max_tokens: number
  thinking?: unknown
  messages: { role: string; content: { type: string; [key: string]: unknown }[] }[]
}

/** Every Messages request the fake API received, refused ones included, as sent. */
function bodies(h: CoreHarness): Body[] {
  return h.fake.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/v1/messages'))
    .map((r) => r.body as Body)
}

describe('extended thinking (Anthropic)', () => {
  it('sends the thinking back unchanged, signature included, across a tool call', async () => {
    const h = await startCoreHarness({
      name: 'thinking',
      format: 'anthropic',
      files: { 'a.txt': 'alpha\n' },
      settings: { max_tokens: 4000 }
    })
    await withThinking(h, 2048)
    h.fake.setScript(readThenAnswer)
    const { items } = await turn(h, 'what is in a.txt?')

    const [first, second] = bodies(h)
    expect(first?.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
    // The budget comes on top: the reply still has the whole max_tokens after thinking.
    expect(first?.max_tokens).toBe(4000 + 2048)
    const assistant = second?.messages.find((m) => m.role === 'assistant')
    expect(assistant?.content.map((b) => b.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use'
    ])
    expect(assistant?.content[0]).toEqual({
      type: 'thinking',
      thinking: THOUGHT,
      signature: fakeSignature(THOUGHT)
    })
    expect(assistant?.content[1]).toEqual({
      type: 'redacted_thinking',
      data: 'fake-redacted:opaque'
    })

    // Recorded in the session with the reply it came with, and the turn ended well.
    const replies = items.filter((i) => i.kind === 'assistant')
    expect(replies.map((r) => r.thinking?.length)).toEqual([2, 1])
    expect(replies[1]?.text).toBe('It says alpha.')
    const end = items.find((i) => i.kind === 'turn-end')
    expect(end?.kind === 'turn-end' && end.error).toBe(null)
    // Thinking is billed as output: its tokens are in the turn's output count.
    expect(end?.kind === 'turn-end' && end.usage.outputTokens).toBeGreaterThanOrEqual(640)
  })

  it('streams the thinking to the window word by word, each block before it is finished', async () => {
    const h = await startCoreHarness({
      name: 'thinking-live',
      format: 'anthropic',
      files: { 'a.txt': 'alpha\n' }
    })
    await withThinking(h, 2048)
    h.fake.setScript(readThenAnswer)
    const { id } = await turn(h, 'what is in a.txt?')

    const mine = h.events.filter((f) => (f.payload as { sessionId?: string }).sessionId === id)
    const pieces = mine.filter((f) => f.event === 'thinking.delta')
    const streamed = new Map<string, string>()
    for (const frame of pieces) {
      const { messageId, place, delta } = frame.payload as {
        messageId: string
        place: number
        delta: string
      }
      const at = `${messageId}#${place}`
      streamed.set(at, (streamed.get(at) ?? '') + delta)
    }
    // The fake API streams each text in two pieces: both came, joined they are the block.
    expect(pieces.length).toBe(4)
    expect([...streamed.values()]).toEqual([THOUGHT, 'It says alpha.'])
    // The first piece reached the window before the block was finished (no item held it yet).
    const firstPiece = mine.indexOf(pieces[0] as (typeof mine)[number])
    const firstFinished = mine.findIndex(
      (f) =>
        f.event === 'transcript.item' &&
        ((f.payload as { item: TranscriptItem }).item as { thinking?: unknown[] }).thinking
    )
    expect(firstPiece).toBeLessThan(firstFinished)
    // Shown, not recorded: the session's log holds the finished blocks only.
    const kinds = new Set(h.core.store.sessions.events(id).map((e) => e.kind))
    expect(kinds.has('thinking.delta')).toBe(false)
  })

  it('a resumed session still sends the recorded thinking back', async () => {
    const h = await startCoreHarness({
      name: 'thinking-resume',
      format: 'anthropic',
      files: { 'a.txt': 'alpha\n' }
    })
    await withThinking(h, 1024)
    h.fake.setScript([{ thinking: [THOUGHT], text: 'Hello.' }, { text: 'Again.' }])
    const { id } = await turn(h, 'hi')
    await h.restart()
    await h.client.call('session.send', { sessionId: id, text: 'once more' })
    await h.core.sessions.idle(id)
    const last = bodies(h).at(-1) as Body
    expect(last.messages[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: THOUGHT,
      signature: fakeSignature(THOUGHT)
    })
  })

  it('with thinking off, no thinking is asked for', async () => {
    const h = await startCoreHarness({ name: 'thinking-off', format: 'anthropic' })
    h.fake.setScript([{ text: 'Plain.' }])
    await turn(h, 'hi')
    const body = bodies(h)[0] as Body
    expect(body.thinking).toBeUndefined()
  })
})
