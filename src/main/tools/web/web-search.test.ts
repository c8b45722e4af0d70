import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  websearchSettingsSchema,
  type SearchBackend,
  type WebsearchSettings
} from '../../../shared/websearch'
import {
  fakeBrave,
  fakeExa,
  fakeHttpJson,
  fakeSearxng,
  type FakeHit
} from '../../../../testing/fake-search-backends'
import { webTools } from './index'
import { parseExaText } from './search-backends'
import { Limiter, searchChain } from './search-chain'
import {
  runTool,
  startLocalServer,
  textOf,
  webContext,
  type LocalServer
} from '../../../../testing/web-test-server'
import { websearchApi } from '../../api/websearch'

const servers: LocalServer[] = []
let page: LocalServer
const hit = (n: number): FakeHit => ({
  title: `Result ${n}`,
  url: `https://example.org/${n}`,
  snippet: `snippet ${n}`
})

beforeAll(async () => {
  page = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<title>Local page</title><h1>Opened</h1><p>The page behind the result.</p>')
  })
  servers.push(page)
})
afterAll(async () => {
  for (const server of servers) await server.close()
})

async function track<T extends LocalServer>(server: Promise<T>): Promise<T> {
  const started = await server
  servers.push(started)
  return started
}

function chain(backends: SearchBackend[] | unknown[]): WebsearchSettings {
  return websearchSettingsSchema.parse({ backends, timeout_ms: 5000 })
}

const keys = {
  env: { BRAVE_API_KEY: 'brave-key', WEBSEARCH_API_KEY: 'json-key', EXA_API_KEY: 'exa-key' }
}
const signal = new AbortController().signal

describe('WebSearch backends', () => {
  it('reads each format: SearXNG, Brave, a generic JSON service and Exa over MCP', async () => {
    const searx = await track(fakeSearxng({ hits: [hit(1), hit(2)] }))
    const brave = await track(fakeBrave({ hits: [hit(3)] }, 'brave-key'))
    const json = await track(fakeHttpJson({ hits: [hit(4)] }, 'json-key'))
    const exa = await track(fakeExa({ hits: [hit(5), hit(6)] }))
    const cases: [unknown, FakeHit[]][] = [
      [{ kind: 'searxng', url: searx.origin }, [hit(1), hit(2)]],
      [{ kind: 'brave', url: brave.origin }, [hit(3)]],
      [{ kind: 'http', url: json.origin, query_param: 'query' }, [hit(4)]],
      [{ kind: 'exa', url: `${exa.origin}/mcp` }, [hit(5), hit(6)]]
    ]
    for (const [backend, expected] of cases) {
      const outcome = await searchChain(chain([backend]), 'tides & moons', 5, keys, signal)
      expect(outcome, JSON.stringify(backend)).toMatchObject({ ok: true, failures: [] })
      if (outcome.ok) {
        expect(outcome.results.map((r) => r.url)).toEqual(expected.map((h) => h.url))
        expect(outcome.results[0]?.snippet).toContain(expected[0]?.snippet)
      }
    }
    // Queries go verbatim; Exa's paid tier gets the key from EXA_API_KEY.
    expect(searx.queries).toEqual(['tides & moons'])
    expect(exa.keys).toContain('exa-key')
  })

  it('falls through a failing backend to the next, and says which failed', async () => {
    const limited = await track(fakeSearxng({ status: 429 }))
    const good = await track(fakeBrave({ hits: [hit(7)] }, 'brave-key'))
    const outcome = await searchChain(
      chain([
        { kind: 'searxng', url: limited.origin },
        { kind: 'brave', url: good.origin, enabled: false },
        { kind: 'brave', url: good.origin }
      ]),
      'q',
      5,
      keys,
      signal
    )
    expect(outcome).toMatchObject({ ok: true, backend: `brave (${good.origin})` })
    expect(outcome.failures).toEqual([`searxng (${limited.origin}): HTTP 429 Too Many Requests`])
  })

  it('gives one error listing every backend that failed, and why', async () => {
    const limited = await track(fakeSearxng({ status: 429 }))
    const broken = await track(fakeHttpJson({ status: 500 }, 'json-key'))
    const exaDown = await track(fakeExa({ status: 503 }))
    const handlers = websearchApi({ keys: { env: {} }, searchSources: { env: {} } })
    const result = await handlers['websearch.test'](
      {
        websearch: {
          backends: [
            { kind: 'searxng', url: limited.origin },
            { kind: 'brave', url: 'http://127.0.0.1:9/' },
            { kind: 'http', url: broken.origin, auth: 'none' },
            { kind: 'exa', url: `${exaDown.origin}/mcp` }
          ]
        },
        query: 'anything'
      },
      { caller: 'test' } as never
    )
    expect(result.ok).toBe(false)
    const error = result.ok ? '' : result.error
    expect(error).toContain('Every search backend failed:')
    expect(error).toContain(`- searxng (${limited.origin}): HTTP 429`)
    expect(error).toContain(
      '- brave (http://127.0.0.1:9/): no key: set the environment variable BRAVE_API_KEY'
    )
    expect(error).toContain(`- http (${broken.origin}): HTTP 500`)
    expect(error).toMatch(/- exa \(http:\/\/127\.0\.0\.1:\d+\/mcp\): .+/)
    expect(error).toContain('Check the keys and URLs in Settings → Search')
  })

  it('gives up on a backend that does not answer in time and tries the next', async () => {
    const silent = await track(startLocalServer(() => undefined))
    const good = await track(fakeSearxng({ hits: [hit(9)] }))
    const settings = websearchSettingsSchema.parse({
      timeout_ms: 1000,
      backends: [
        { kind: 'searxng', url: silent.origin },
        { kind: 'searxng', url: good.origin }
      ]
    })
    const outcome = await searchChain(settings, 'q', 5, keys, signal)
    expect(outcome).toMatchObject({ ok: true, backend: `searxng (${good.origin})` })
    expect(outcome.failures).toEqual([`searxng (${silent.origin}): no answer within 1 s`])
  })

  it('runs at most max_concurrent searches at once', async () => {
    const limiter = new Limiter(() => 2)
    let active = 0
    let most = 0
    const releases: (() => void)[] = []
    let done = 0
    for (let i = 0; i < 5; i++) {
      void limiter
        .run(async () => {
          active++
          most = Math.max(most, active)
          await new Promise<void>((resolve) => releases.push(resolve))
          active--
        })
        .then(() => done++)
    }
    while (done < 5) {
      await new Promise((resolve) => setImmediate(resolve))
      expect(active).toBeLessThanOrEqual(2)
      for (const release of releases.splice(0)) release()
    }
    expect(most).toBe(2)
  })

  it('reads Exa answers in JSON as well as in its line format', () => {
    const json = JSON.stringify({
      results: [{ title: 'A', url: 'https://a.example', text: 'body' }]
    })
    expect(parseExaText(json, 5)).toEqual([
      { title: 'A', url: 'https://a.example', snippet: 'body' }
    ])
  })

  it('says to configure a backend when none is', async () => {
    const outcome = await searchChain(chain([]), 'q', 5, keys, signal)
    expect(outcome).toEqual({ ok: false, failures: [] })
  })
})

describe('WebSearch and WebOpen tools', () => {
  it('search, then open a result by its handle; handles belong to their session', async () => {
    const searx = await track(
      fakeSearxng({
        hits: [{ title: 'Local', url: `${page.origin}/doc`, snippet: 'a local page' }, hit(8)]
      })
    )
    const settings = chain([{ kind: 'searxng', url: searx.origin }])
    const tools = webTools({
      search: true,
      settings: () => settings,
      sources: { env: {} },
      keys,
      guard: { allowLoopback: true }
    })
    const [search, open] = ['WebSearch', 'WebOpen'].map((name) =>
      tools.find((t) => t.name === name)!
    )
    expect(search!.capabilities).toMatchObject({ untrustedInput: true, egress: 'blind' })
    const found = await runTool(search!, { query: 'local page' }, webContext('s1'))
    expect(found.isError).toBe(false)
    expect(found.external).toBe(true)
    expect(textOf(found)).toContain(`[r1] Local\n${page.origin}/doc\na local page`)
    expect(found.display).toMatchObject({
      kind: 'web-results',
      results: [{ handle: 'r1' }, { handle: 'r2' }]
    })

    const opened = await runTool(open!, { handle: 'r1' }, webContext('s1'))
    expect(opened.isError).toBe(false)
    expect(opened.external).toBe(true)
    expect(textOf(opened)).toContain('The page behind the result.')
    expect(opened.display).toMatchObject({ kind: 'web-page', title: 'Local page' })

    const elsewhere = await runTool(open!, { handle: 'r1' }, webContext('s2'))
    expect(elsewhere.isError).toBe(true)
    expect(textOf(elsewhere)).toContain('no search result "r1" in this session')
  })

  it('opens nothing the guard refuses, even from a result', async () => {
    const searx = await track(
      fakeSearxng({ hits: [{ title: 'Meta', url: 'http://169.254.169.254/latest', snippet: '' }] })
    )
    const settings = chain([{ kind: 'searxng', url: searx.origin }])
    const tools = webTools({
      search: true,
      settings: () => settings,
      sources: { env: {} },
      keys,
      guard: { allowLoopback: true }
    })
    const ctx = webContext('s3')
    await runTool(
      tools.find((t) => t.name === 'WebSearch')!,
      { query: 'meta' },
      ctx
    )
    const opened = await runTool(
      tools.find((t) => t.name === 'WebOpen')!,
      { handle: 'r1' },
      ctx
    )
    expect(opened.isError).toBe(true)
    expect(textOf(opened)).toContain('link-local')
  })

  it('has no egress with no backend, and no WebSearch or WebOpen when search is off', () => {
    const empty = websearchSettingsSchema.parse({ defaults: false })
    const sources = { env: {} }
    const on = webTools({ search: true, settings: () => empty, sources, keys, guard: {} })
    expect(on.find((t) => t.name === 'WebSearch')!.capabilities.egress).toBe('none')
    const off = webTools({ search: false, settings: () => empty, sources, keys, guard: {} })
    expect(off.map((t) => t.name)).toEqual(['WebFetch'])
  })

  it('reads its egress from the settings at each use, not once when it is built', () => {
    let current = websearchSettingsSchema.parse({ defaults: false })
    const tools = webTools({
      search: true,
      settings: () => current,
      sources: { env: {} },
      keys,
      guard: {}
    })
    const search = tools.find((t) => t.name === 'WebSearch')!
    expect(search.capabilities.egress).toBe('none')
    current = chain([{ kind: 'searxng', url: 'http://127.0.0.1:9' }])
    expect(search.capabilities.egress).toBe('blind')
  })
})
