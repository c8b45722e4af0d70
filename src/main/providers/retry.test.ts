// Which failures are tried again and after how long, through the real SDKs on a real socket. The
// waits are seen through an injected sleep (what was asked for, exactly), never on a clock.
import { afterEach, describe, expect, it } from 'vitest'
import {
  startFlakyModelServer,
  type Failure,
  type FlakyModelServer
} from '../../../testing/flaky-model-server'
import { AnthropicProvider } from './anthropic-provider'
import { OpenAIProvider } from './openai-provider'
import type { Provider } from './provider'
import {
  abortableSleep,
  RetriesExhaustedError,
  retryLine,
  withRetries,
  type RetryPolicy,
  type RetryWait
} from './retry'

let server: FlakyModelServer | null = null

afterEach(async () => {
  await server?.close()
  server = null
})

async function providerFor(format: 'openai' | 'anthropic', failures: Failure[]): Promise<Provider> {
  server = await startFlakyModelServer(failures)
  return format === 'openai'
    ? new OpenAIProvider({ id: 'f', flavour: 'openai', baseURL: server.openaiBaseUrl, apiKey: 'k' })
    : new AnthropicProvider({ id: 'f', baseURL: server.anthropicBaseUrl, apiKey: 'k' })
}

interface Outcome {
  text: string
  error: Error | null
  waits: RetryWait[]
  slept: number[]
}

async function run(
  provider: Provider,
  policy: Partial<RetryPolicy> = {},
  signal: AbortSignal = new AbortController().signal,
  onWait: (wait: RetryWait) => void = () => undefined
): Promise<Outcome> {
  const waits: RetryWait[] = []
  const slept: number[] = []
  const sleep = policy.sleep ?? (async (ms: number): Promise<void> => void slept.push(ms))
  try {
    const result = await withRetries(
      () =>
        provider.stream(
          {
            model: 'fake-model',
            system: 'be brief',
            messages: [{ role: 'user', text: 'hi' }],
            tools: [],
            maxTokens: 100,
            signal
          },
          () => undefined
        ),
      signal,
      { maxRetries: 4, ...policy, sleep },
      (wait) => {
        waits.push(wait)
        onWait(wait)
      }
    )
    return { text: result.text, error: null, waits, slept }
  } catch (error) {
    return { text: '', error: error as Error, waits, slept }
  }
}

describe.each(['openai', 'anthropic'] as const)('retrying over %s', (format) => {
  it('waits exactly what a 429 retry-after asks for, then succeeds', async () => {
    const provider = await providerFor(format, [{ status: 429, headers: { 'retry-after': '2' } }])
    const { text, error, waits, slept } = await run(provider)
    expect(error).toBeNull()
    expect(text).toBe(server?.text)
    expect(slept).toEqual([2000])
    expect(waits).toMatchObject([{ attempt: 2, reason: 'rate limited', waitMs: 2000 }])
    expect(retryLine(waits[0]?.waitMs ?? 0, 'rate limited')).toBe('Retrying in 2 s (rate limited)…')
    // The SDK did not retry on its own behind our back: one request per attempt.
    expect(server?.arrivals).toHaveLength(2)
  })

  it('prefers retry-after-ms, and reads retry-after as an HTTP date', async () => {
    const when = new Date(Date.now() + 60_000).toUTCString()
    const provider = await providerFor(format, [
      { status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' } },
      { status: 429, headers: { 'retry-after': when } }
    ])
    const { error, slept } = await run(provider)
    expect(error).toBeNull()
    expect(slept[0]).toBe(1500)
    // An HTTP date has a one-second grain: the wait is up to a minute, and more than 58 s.
    expect(slept[1]).toBeGreaterThan(58_000)
    expect(slept[1]).toBeLessThanOrEqual(60_000)
  })

  it('backs off with jitter on 5xx and overloaded, within its bounds', async () => {
    const failures: Failure[] = [{ status: 503 }, { status: 529 }, { status: 500 }]
    const low = await run(await providerFor(format, failures), { random: () => 0 })
    expect(low.error).toBeNull()
    expect(low.slept).toEqual([500, 1000, 2000])
    expect(low.waits.map((w) => w.reason)).toEqual([
      'server error 503',
      'overloaded',
      'server error 500'
    ])
    await server?.close()
    const high = await run(await providerFor(format, failures), { random: () => 0.999_999 })
    expect(high.slept).toEqual([1000, 2000, 4000])
  })

  it('does not retry a refused key, nor what the provider says not to', async () => {
    const refused = await run(await providerFor(format, [{ status: 401 }]))
    expect(refused.error).toMatchObject({ status: 401 })
    expect(refused.slept).toEqual([])
    expect(server?.arrivals).toHaveLength(1)
    await server?.close()
    const told = await run(
      await providerFor(format, [{ status: 503, headers: { 'x-should-retry': 'false' } }])
    )
    expect(told.error).toMatchObject({ status: 503 })
    expect(server?.arrivals).toHaveLength(1)
  })

  it('after the limit fails saying what happened and what to do', async () => {
    const provider = await providerFor(format, [{ status: 503 }, { status: 503 }])
    const { error, slept } = await run(provider, { maxRetries: 1 })
    expect(error).toBeInstanceOf(RetriesExhaustedError)
    expect(error?.message).toContain('server error 503: tried 2 times, the first and 1 retry')
    expect(error?.message).toContain('provider_max_retries')
    expect(slept).toHaveLength(1)
    expect(server?.arrivals).toHaveLength(2)
  })

  it('does not wait longer than it allows when retry-after asks for ten minutes', async () => {
    const provider = await providerFor(format, [{ status: 429, headers: { 'retry-after': '600' } }])
    const { error, slept } = await run(provider)
    expect(error?.message).toContain('the provider asked to wait 600 s before trying again')
    expect(slept).toEqual([])
    expect(server?.arrivals).toHaveLength(1)
  })

  it('retries a connection reset mid-reply', async () => {
    const { error, text, waits } = await run(await providerFor(format, ['reset']))
    expect(error).toBeNull()
    expect(text).toBe(server?.text)
    expect(waits).toMatchObject([{ reason: 'connection dropped' }])
  })

  it('stops at once when stopped during a wait, on the real timer', async () => {
    const provider = await providerFor(format, [{ status: 429, headers: { 'retry-after': '60' } }])
    const stop = new AbortController()
    const { error, waits } = await run(provider, { sleep: abortableSleep }, stop.signal, () =>
      stop.abort(new Error('stopped by the person'))
    )
    expect(error?.message).toBe('stopped by the person')
    expect(waits).toHaveLength(1)
    expect(server?.arrivals).toHaveLength(1)
  })
})

// Only Anthropic sheds load with an error event in the middle of a stream.
it('retries an Anthropic overloaded_error event mid-reply', async () => {
  const { error, text, waits } = await run(await providerFor('anthropic', ['overloaded']))
  expect(error).toBeNull()
  expect(text).toBe(server?.text)
  expect(waits).toMatchObject([{ reason: 'overloaded' }])
})
