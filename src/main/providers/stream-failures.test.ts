// A provider's stream that breaks says how it broke, through the real SDKs on a real socket: it
// stopped sending (after the idle limit, not the SDKs' minutes), the connection dropped mid-reply
// (keeping what arrived), or what came was not a stream.
import { afterEach, describe, expect, it } from 'vitest'
import {
  startBrokenModelServer,
  type Breakage,
  type BrokenModelServer
} from '../../../testing/broken-model-server'
import { AnthropicProvider } from './anthropic-provider'
import { OpenAIProvider } from './openai-provider'
import type { Provider } from './provider'

let server: BrokenModelServer | null = null

afterEach(async () => {
  await server?.close()
  server = null
})

async function providerFor(format: 'openai' | 'anthropic', breakage: Breakage): Promise<Provider> {
  server = await startBrokenModelServer(breakage)
  return format === 'openai'
    ? new OpenAIProvider({
        id: 'broken',
        flavour: 'openai-compatible',
        baseURL: server.openaiBaseUrl,
        apiKey: 'k'
      })
    : new AnthropicProvider({ id: 'broken', baseURL: server.anthropicBaseUrl, apiKey: 'k' })
}

/** Streams one reply with a short idle limit; resolves with what arrived and how it ended. */
async function streamOnce(
  provider: Provider,
  idleTimeoutMs = 300
): Promise<{ text: string; error: Error | null }> {
  let text = ''
  try {
    await provider.stream(
      {
        model: 'fake-model',
        system: 'be brief',
        messages: [{ role: 'user', text: 'hi' }],
        tools: [],
        maxTokens: 100,
        signal: new AbortController().signal,
        idleTimeoutMs
      },
      (delta) => {
        text += delta
      }
    )
    return { text, error: null }
  } catch (error) {
    return { text, error: error as Error }
  }
}

describe.each(['openai', 'anthropic'] as const)('a broken %s stream', (format) => {
  it('that stops sending mid-reply fails after the idle limit, keeping what arrived', async () => {
    const { text, error } = await streamOnce(await providerFor(format, 'stall'))
    expect(error?.message).toMatch(/^the provider stopped sending for 0\.3 s\b/)
    expect(error?.message).toContain('provider_idle_timeout_s')
    expect(text.length).toBeGreaterThan(0)
    expect(server?.text.startsWith(text)).toBe(true)
  })

  it('that never answers fails after the idle limit too', async () => {
    const { error } = await streamOnce(await providerFor(format, 'silent'), 200)
    expect(error?.message).toMatch(/^the provider stopped sending for 0\.2 s\b/)
    // The SDKs retry a request that failed, but a stall is not theirs to retry.
    expect(server?.requests).toBe(1)
  })

  it('that is reset mid-reply says the connection dropped, keeping what arrived', async () => {
    const { text, error } = await streamOnce(await providerFor(format, 'reset'))
    expect(error?.message).toMatch(
      /^the connection to the provider dropped in the middle of its reply/
    )
    expect(text.length).toBeGreaterThan(0)
    expect(server?.text.startsWith(text)).toBe(true)
  })

  it('that carries an event that is not JSON says it is not a valid stream', async () => {
    const { error } = await streamOnce(await providerFor(format, 'garbage'))
    expect(error?.message).toMatch(/^the provider sent something that is not a valid stream/)
  })

  it('that is a web page instead says it is not a valid stream', async () => {
    const { error } = await streamOnce(await providerFor(format, 'html'))
    expect(error?.message).toMatch(/^the provider sent something that is not a valid stream/)
    expect(error?.message).toContain('base URL')
  })
})
