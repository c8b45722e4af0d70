// A turn whose provider fails in a way worth retrying tries again, visibly: a 429 waits what
// its retry-after says, a connection reset mid-reply keeps what was shown (marked interrupted)
// and streams the retry into a reply of its own, Stop during the wait ends the turn there, and
// after provider_max_retries the turn fails saying what happened. Real SDKs, real sockets.
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { startFlakyModelServer, type Failure } from '../../../testing/flaky-model-server'

type Assistant = Extract<TranscriptItem, { kind: 'assistant' }>

async function flakyTurn(
  format: 'openai' | 'anthropic',
  failures: Failure[],
  settings: Record<string, unknown> = {}
): Promise<{
  h: CoreHarness
  sessionId: string
  server: Awaited<ReturnType<typeof startFlakyModelServer>>
}> {
  const server = await startFlakyModelServer(failures)
  onTestFinished(() => server.close())
  const h = await startCoreHarness({
    name: 'turn-retries',
    format,
    settings: {
      providers: [
        format === 'openai'
          ? { id: 'fake', kind: 'openai-compatible', base_url: server.openaiBaseUrl }
          : { id: 'fake', kind: 'anthropic', base_url: server.anthropicBaseUrl, api_key_env: 'K' }
      ],
      ...settings
    },
    core: { env: { K: 'k' } }
  })
  const session = await h.client.call('session.create', { workspace: h.workspace })
  return { h, sessionId: session.id, server }
}

function assistantItems(h: CoreHarness): Assistant[] {
  return h.events
    .filter((e) => e.event === 'transcript.item')
    .map((e) => (e.payload as { item: TranscriptItem }).item)
    .filter((i): i is Assistant => i.kind === 'assistant')
}

async function storedReplies(h: CoreHarness, sessionId: string): Promise<Assistant[]> {
  await h.restart()
  const stored = (await h.client.call('session.get', { sessionId })).transcript
  return stored.filter((i): i is Assistant => i.kind === 'assistant')
}

describe.each(['openai', 'anthropic'] as const)('a turn over %s', (format) => {
  it('that meets a 429 with retry-after: 2 retries once the two seconds are over', async () => {
    const { h, sessionId, server } = await flakyTurn(format, [
      { status: 429, headers: { 'retry-after': '2' } }
    ])
    await h.client.call('session.send', { sessionId, text: 'hello' })
    await h.core.sessions.idle(sessionId)
    expect(h.events.some((e) => e.event === 'turn.failed')).toBe(false)
    // The window was told what the wait is and why, before it began.
    const notice = assistantItems(h).find((i) => i.retry)
    expect(notice?.retry).toMatchObject({ reason: 'rate limited', waitMs: 2000, attempt: 2 })
    // The server's own clock: the retry came no earlier than the provider asked (a timer may
    // fire a hair early by the wall clock's rounding, never by more than a millisecond or two).
    expect(server.arrivals).toHaveLength(2)
    const [first = 0, second = 0] = server.arrivals
    expect(second - first).toBeGreaterThanOrEqual(1990)
    const replies = await storedReplies(h, sessionId)
    expect(replies.map((r) => r.text)).toEqual([server.text])
    expect(replies[0]).toMatchObject({ streaming: false })
    expect(replies[0]?.retry).toBeUndefined()
  })

  it('whose connection is reset mid-reply retries without duplicating shown text', async () => {
    const { h, sessionId, server } = await flakyTurn(format, ['reset'], {
      provider_retry_base_ms: 50
    })
    await h.client.call('session.send', { sessionId, text: 'hello' })
    await h.core.sessions.idle(sessionId)
    expect(h.events.some((e) => e.event === 'turn.failed')).toBe(false)
    expect(server.arrivals).toHaveLength(2)
    // The model's history holds the reply once: the retry's, not the cut one before it; and so
    // does the history a restarted core rebuilds from the record.
    const said = (): string[] =>
      h.core.sessions
        .get(sessionId)
        .history.filter((m) => m.role === 'assistant')
        .map((m) => m.text)
    expect(said()).toEqual([server.text])
    const replies = await storedReplies(h, sessionId)
    expect(said()).toEqual([server.text])
    // What was shown stays as it was, marked interrupted; the retry is a reply of its own.
    expect(replies).toHaveLength(2)
    const [cut, whole] = replies
    expect(cut?.interrupted).toBe(true)
    expect(cut?.text.length).toBeGreaterThan(0)
    expect(server.text.startsWith(cut?.text ?? '')).toBe(true)
    expect(cut?.text).not.toBe(server.text)
    expect(whole?.text).toBe(server.text)
    expect(whole?.interrupted).toBeUndefined()
  })

  it('stopped during the wait ends there, without another request', async () => {
    const { h, sessionId, server } = await flakyTurn(format, [
      { status: 429, headers: { 'retry-after': '30' } }
    ])
    await h.client.call('session.send', { sessionId, text: 'hello' })
    for (let i = 0; i < 500 && !assistantItems(h).some((item) => item.retry); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(assistantItems(h).some((item) => item.retry)).toBe(true)
    await h.client.call('session.cancel', { sessionId })
    await h.core.sessions.idle(sessionId)
    const end = h.events.find((e) => e.event === 'turn.completed' || e.event === 'turn.failed')
    expect(end?.event).toBe('turn.completed')
    expect((end?.payload as { stopReason?: string }).stopReason).toBe('cancelled')
    expect(server.arrivals).toHaveLength(1)
    const replies = await storedReplies(h, sessionId)
    expect(replies.every((r) => r.retry === undefined && !r.streaming)).toBe(true)
  })

  it('that keeps failing ends after provider_max_retries, saying what happened', async () => {
    const failures: Failure[] = [{ status: 503 }, { status: 503 }, { status: 503 }]
    const { h, sessionId, server } = await flakyTurn(format, failures, {
      provider_max_retries: 2,
      provider_retry_base_ms: 20
    })
    await h.client.call('session.send', { sessionId, text: 'hello' })
    await h.core.sessions.idle(sessionId)
    expect(server.arrivals).toHaveLength(3)
    const failed = h.events.find((e) => e.event === 'turn.failed')
    const error = (failed?.payload as { error?: string } | undefined)?.error ?? ''
    expect(error).toContain('server error 503: tried 3 times, the first and 2 retries')
    expect(error).toContain('provider_max_retries')
  })
})
