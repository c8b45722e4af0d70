// A turn whose provider breaks mid-reply keeps the words that arrived, in the window and the
// record, and fails with a sentence that says how the provider broke, after the idle limit the
// settings give (provider_idle_timeout_s).
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { startBrokenModelServer, type Breakage } from '../../../testing/broken-model-server'
import { underCollections } from '../../../testing/collections'
import { startCoreHarness } from '../../../testing/core-harness'

async function brokenTurn(
  format: 'openai' | 'anthropic',
  breakage: Breakage
): Promise<{ error: string; reply: TranscriptItem | undefined; text: string }> {
  const broken = await startBrokenModelServer(breakage)
  onTestFinished(() => broken.close())
  const h = await startCoreHarness({
    name: 'provider-breaks',
    format,
    settings: {
      providers: [
        format === 'openai'
          ? { id: 'fake', kind: 'openai-compatible', base_url: broken.openaiBaseUrl }
          : { id: 'fake', kind: 'anthropic', base_url: broken.anthropicBaseUrl, api_key_env: 'K' }
      ],
      provider_idle_timeout_s: 1,
      // A reset is retried (see turn-retries.test.ts); here only how the last one is told counts.
      provider_retry_base_ms: 10
    },
    core: { env: { K: 'k' } }
  })
  const session = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: session.id, text: 'hello' })
  await h.core.sessions.idle(session.id)
  const failed = h.events.find((e) => e.event === 'turn.failed')
  await h.restart()
  const stored = (await h.client.call('session.get', { sessionId: session.id })).transcript
  return {
    error: (failed?.payload as { error?: string } | undefined)?.error ?? '',
    reply: stored.find((i) => i.kind === 'assistant'),
    text: broken.text
  }
}

describe.each(['openai', 'anthropic'] as const)('a turn over %s', (format) => {
  it('whose provider stops sending fails after the idle limit, keeping what arrived', async () => {
    const { error, reply, text } = await brokenTurn(format, 'stall')
    expect(error).toMatch(/^the provider stopped sending for 1 s, so its reply was given up/)
    expect(reply).toMatchObject({ kind: 'assistant', streaming: false })
    const kept = reply?.kind === 'assistant' ? reply.text : ''
    expect(kept.length).toBeGreaterThan(0)
    expect(text.startsWith(kept)).toBe(true)
  })

  it('whose connection is reset mid-reply says so, keeping what arrived', async () => {
    const { error, reply, text } = await brokenTurn(format, 'reset')
    expect(error).toMatch(/^the connection to the provider dropped in the middle of its reply/)
    const kept = reply?.kind === 'assistant' ? reply.text : ''
    expect(kept.length).toBeGreaterThan(0)
    expect(text.startsWith(kept)).toBe(true)
  })
})

// The 'openai' runs above use a local OpenAI-compatible server, which is first asked what window
// it serves (Ollama's /api/ps…); this one answers those too with a stream that stalls. The probe's deadline and the reply's
// watchdog must both fire though collections run meanwhile (Node 20's fetch loses a request's
// signal in one: the turn then waited for as long as the server kept the socket open).
it(
  'a turn whose local server stalls fails after the idle limit though collections run',
  {
    // A collection every 20 ms slows a loaded machine a lot; the bound is for the hang it catches.
    timeout: 60_000
  },
  async () => {
    const { error } = await underCollections(() => brokenTurn('openai', 'stall'), 20)
    expect(error).toMatch(/^the provider stopped sending for 1 s, so its reply was given up/)
  }
)
