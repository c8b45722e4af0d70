import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProvider } from './create-provider'
import { describeBaseUrl, describeProviderFailure } from './provider-errors'
import type { ProviderSettings } from '../../shared/settings'

describe('describeBaseUrl', () => {
  it('accepts http and https addresses, and no address at all', () => {
    expect(describeBaseUrl(undefined)).toBeNull()
    expect(describeBaseUrl('http://127.0.0.1:11434/v1')).toBeNull()
    expect(describeBaseUrl('https://api.openai.com/v1')).toBeNull()
  })

  it('says what is malformed, not that the server could not be reached', () => {
    expect(describeBaseUrl('127.0.0.1:11434/v1')).toMatch(
      /has no scheme: start it with http:\/\/ or https:\/\/ \(for example http:\/\/127\.0\.0\.1:11434\/v1\)/
    )
    expect(describeBaseUrl('localhost:11434/v1')).toMatch(/has no scheme/)
    expect(describeBaseUrl('ftp://example.com/v1')).toMatch(/scheme "ftp" is not supported/)
    expect(describeBaseUrl('http://local host:8080/v1')).toMatch(/contains a space/)
    expect(describeBaseUrl(' http://127.0.0.1:1/v1')).toMatch(/contains a space/)
    expect(describeBaseUrl('http://127.0.0.1:99999/v1')).toMatch(/port 99999 is out of range/)
    expect(describeBaseUrl('http://:8080/v1')).toMatch(/has no host/)
    expect(describeBaseUrl('http:///v1')).toMatch(/has no host/)
    expect(describeBaseUrl('http://exa[mple.com/v1')).toMatch(/host "exa\[mple\.com" is not/)
  })
})

describe('describeProviderFailure', () => {
  let closedPort: number
  let silent: Server
  let silentPort: number
  beforeAll(async () => {
    // A port that was just free: nothing listens on it, so a connection is refused.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    // Accepts connections and never answers: what a hung server looks like.
    silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    silentPort = (silent.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  const fail = async (
    partial: Omit<ProviderSettings, 'models'>,
    given?: AbortSignal
  ): Promise<string> => {
    const settings: ProviderSettings = { models: [], ...partial }
    const signal = given ?? AbortSignal.timeout(10_000)
    try {
      const provider = createProvider(settings, { env: { K: 'k' } })
      await provider.listModels(signal)
    } catch (error) {
      return describeProviderFailure(error, settings, signal)
    }
    throw new Error('expected the call to fail')
  }

  it('names the address that refused the connection, for both wire formats', async () => {
    for (const kind of ['openai-compatible', 'anthropic'] as const) {
      const base = `http://127.0.0.1:${closedPort}/v1`
      const message = await fail({ id: 'p', kind, base_url: base, api_key_env: 'K' })
      expect(message).toContain(`127.0.0.1:${closedPort}`)
      expect(message).toMatch(/refused the connection: nothing is listening there/)
      expect(message).not.toMatch(/API key/)
    }
  })

  it('says when the port is one the HTTP client refuses to use', async () => {
    const message = await fail({
      id: 'p',
      kind: 'openai-compatible',
      base_url: 'http://127.0.0.1:9/v1'
    })
    expect(message).toMatch(/127\.0\.0\.1:9\): its port is one the HTTP client will not use/)
  })

  it('says a host name was not found (DNS)', async () => {
    const message = await fail({
      id: 'p',
      kind: 'openai-compatible',
      base_url: 'http://no-such-host.invalid/v1'
    })
    expect(message).toMatch(/no-such-host\.invalid/)
    expect(message).toMatch(/not found \(DNS\)/)
  })

  it('says which address did not answer in time', async () => {
    const controller = new AbortController()
    const base = `http://127.0.0.1:${silentPort}/v1`
    // Aborted once the connection is open and waiting, the way the test's own timeout ends it.
    silent.once('connection', () => controller.abort(new DOMException('timed out', 'TimeoutError')))
    const message = await fail(
      { id: 'p', kind: 'openai-compatible', base_url: base },
      controller.signal
    )
    expect(message).toContain(`127.0.0.1:${silentPort}`)
    expect(message).toMatch(/did not answer in time/)
  })

  it('keeps other messages as they were', () => {
    expect(describeProviderFailure(new Error('odd'), { kind: 'openai' })).toBe('odd')
  })
})
