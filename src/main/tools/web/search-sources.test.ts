import { afterAll, describe, expect, it } from 'vitest'
import { websearchSettingsSchema, type SearchBackend } from '../../../shared/websearch'
import {
  fakeJsonService,
  fakeSearxng,
  type FakeHit
} from '../../../../testing/fake-search-backends'
import type { LocalServer } from '../../../../testing/web-test-server'
import { searchChain } from './search-chain'
import { effectiveBackends } from './search-sources'

const servers: LocalServer[] = []
afterAll(async () => {
  for (const server of servers) await server.close()
})
async function track<T extends LocalServer>(server: Promise<T>): Promise<T> {
  const started = await server
  servers.push(started)
  return started
}

const hit: FakeHit = { title: 'Tides', url: 'https://example.org/tides', snippet: 'twice a day' }
const signal = new AbortController().signal
const settings = (websearch: unknown = {}): ReturnType<typeof websearchSettingsSchema.parse> =>
  websearchSettingsSchema.parse(websearch)
const kinds = (backends: SearchBackend[]): string[] =>
  backends.map((b) => `${b.kind}${b.enabled ? '' : ' (off)'}${b.url ? ` ${b.url}` : ''}`)

describe('the backends WebSearch tries', () => {
  it('is Exa’s public endpoint alone with no settings and an empty environment', () => {
    expect(kinds(effectiveBackends(settings(), { env: {} }))).toEqual(['exa'])
  })

  it('adds what the environment names: Exa’s paid tier first, then Brave, then SearXNG', () => {
    const env = { BRAVE_API_KEY: 'b', SEARXNG_URL: 'https://searx.example', EXA_API_KEY: 'e' }
    expect(kinds(effectiveBackends(settings(), { env }))).toEqual([
      'exa',
      'brave',
      'searxng https://searx.example'
    ])
    // Without an Exa key the anonymous Exa is the last resort, after what has a key.
    const { EXA_API_KEY: _exa, ...rest } = env
    expect(kinds(effectiveBackends(settings(), { env: rest }))).toEqual([
      'brave',
      'searxng https://searx.example',
      'exa'
    ])
  })

  it('ignores empty variables', () => {
    const env = { BRAVE_API_KEY: '', SEARXNG_URL: '  ', EXA_API_KEY: '' }
    expect(kinds(effectiveBackends(settings(), { env }))).toEqual(['exa'])
  })

  it('puts the command line’s backend first and the listed ones next; a listed kind is not added twice', () => {
    const commandLine: SearchBackend = {
      kind: 'http',
      enabled: true,
      url: 'https://json.example/find',
      query_param: 'q',
      auth: 'none',
      method: 'get'
    }
    const listed = settings({
      backends: [
        { kind: 'brave', enabled: false },
        { kind: 'searxng', url: 'https://mine.example' }
      ]
    })
    const env = { BRAVE_API_KEY: 'b', SEARXNG_URL: 'https://env.example' }
    // The person turned Brave off and named a SearXNG of their own: the environment adds neither.
    expect(kinds(effectiveBackends(listed, { env, commandLine }))).toEqual([
      'http https://json.example/find',
      'brave (off)',
      'searxng https://mine.example',
      'exa'
    ])
  })

  it('with defaults: false, only what is listed or given on the command line', () => {
    const env = { BRAVE_API_KEY: 'b', EXA_API_KEY: 'e' }
    expect(effectiveBackends(settings({ defaults: false }), { env })).toEqual([])
    const listed = settings({
      defaults: false,
      backends: [{ kind: 'searxng', url: 'https://s.example' }]
    })
    expect(kinds(effectiveBackends(listed, { env }))).toEqual(['searxng https://s.example'])
  })

  it('a listed exa, even turned off, replaces the anonymous one', () => {
    expect(
      kinds(
        effectiveBackends(settings({ backends: [{ kind: 'exa', enabled: false }] }), { env: {} })
      )
    ).toEqual(['exa (off)'])
  })

  it('points the built-in endpoints elsewhere only through the testing seam', () => {
    const endpoints = { exa: 'http://127.0.0.1:1/mcp', brave: 'http://127.0.0.1:2/' }
    const env = { BRAVE_API_KEY: 'b' }
    expect(kinds(effectiveBackends(settings(), { env, endpoints }))).toEqual([
      'brave http://127.0.0.1:2/',
      'exa http://127.0.0.1:1/mcp'
    ])
  })
})

describe('the generic JSON backend', () => {
  const chain = (backend: Record<string, unknown>): ReturnType<typeof settings> =>
    settings({ defaults: false, backends: [backend], timeout_ms: 5000 })

  it('sends the query as form parameters with method: post, the key in the header named', async () => {
    const json = await track(fakeJsonService({ hits: [hit] }))
    const outcome = await searchChain(
      chain({
        kind: 'http',
        url: `${json.origin}/find?lang=en`,
        method: 'post',
        query_param: 'term',
        auth: 'header',
        auth_header: 'X-Api-Key'
      }),
      'tides & moons',
      5,
      { env: { WEBSEARCH_API_KEY: 'json-key' } },
      signal
    )
    expect(outcome).toMatchObject({ ok: true, failures: [] })
    const [seen] = json.requests
    expect(seen?.method).toBe('POST')
    expect(seen?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    expect(seen?.form.get('term')).toBe('tides & moons')
    // The URL keeps its own parameters and carries no query: it is in the body.
    expect([...(seen?.params.entries() ?? [])]).toEqual([['lang', 'en']])
    expect(seen?.headers['x-api-key']).toBe('json-key')
    expect(seen?.headers.authorization).toBeUndefined()
  })

  it('sends the query as a URL parameter by default, with a bearer key', async () => {
    const json = await track(fakeJsonService({ hits: [hit] }))
    const outcome = await searchChain(
      chain({ kind: 'http', url: json.origin }),
      'tides',
      5,
      { env: { WEBSEARCH_API_KEY: 'json-key' } },
      signal
    )
    expect(outcome.ok).toBe(true)
    const [seen] = json.requests
    expect(seen?.method).toBe('GET')
    expect(seen?.params.get('q')).toBe('tides')
    expect(seen?.headers.authorization).toBe('Bearer json-key')
  })
})

describe('SEARXNG_URL', () => {
  it('may name the instance or its /search endpoint', async () => {
    const searx = await track(fakeSearxng({ hits: [hit] }))
    for (const url of [searx.origin, `${searx.origin}/`, `${searx.origin}/search`]) {
      const backends = effectiveBackends(settings({ timeout_ms: 5000 }), {
        env: { SEARXNG_URL: url },
        endpoints: { exa: 'http://127.0.0.1:9/mcp' }
      })
      const outcome = await searchChain(
        { ...settings({ timeout_ms: 5000 }), backends },
        'q',
        5,
        { env: { SEARXNG_URL: url } },
        signal
      )
      expect(outcome, url).toMatchObject({ ok: true, backend: `searxng (${url})` })
    }
  })

  it('says what to fix when it is not an address', async () => {
    const backends = effectiveBackends(settings(), {
      env: { SEARXNG_URL: 'searx dot example' },
      endpoints: { exa: 'http://127.0.0.1:9/mcp' }
    })
    const outcome = await searchChain(
      { ...settings({ timeout_ms: 5000 }), backends },
      'q',
      5,
      { env: { SEARXNG_URL: 'searx dot example' } },
      signal
    )
    expect(outcome.ok).toBe(false)
    expect(outcome.failures[0]).toContain('is not an http(s) address')
    expect(outcome.failures[0]).not.toContain('searx dot example')
  })
})
