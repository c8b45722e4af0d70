import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { projectSettingsSchema, settingsSchema } from '../../../shared/settings'
import { createCore, type Core, type CoreOptions } from '../../core'
import {
  fakeBrave,
  fakeExa,
  fakeSearxng,
  type FakeHit
} from '../../../../testing/fake-search-backends'
import {
  runTool,
  startLocalServer,
  textOf,
  type LocalServer
} from '../../../../testing/web-test-server'

let page: LocalServer
const cores: Core[] = []
const dirs: string[] = []

beforeAll(async () => {
  page = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('served on loopback')
  })
})
afterAll(() => page.close())
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose()
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function core(
  options: Pick<
    CoreOptions,
    'websearch' | 'env' | 'webGuard' | 'searchBackend' | 'searchEndpoints'
  > & { settings?: string } = {}
): Promise<Core> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-web-core-'))
  dirs.push(dataDir)
  if (options.settings) await writeFile(path.join(dataDir, 'settings.yaml'), options.settings)
  const created = await createCore({
    dataDir,
    host: 'cli',
    interactive: false,
    env: options.env ?? {},
    websearch: options.websearch,
    webGuard: options.webGuard,
    searchBackend: options.searchBackend,
    // Never the real services: Exa and Brave are stand-ins on loopback, or a closed port.
    searchEndpoints: options.searchEndpoints ?? {
      exa: 'http://127.0.0.1:9/mcp',
      brave: 'http://127.0.0.1:9/'
    }
  })
  cores.push(created)
  return created
}

const names = (c: Core): string[] => c.catalog.list().map((t) => t.name)

describe('web tools in the core', () => {
  it('offers WebFetch, WebSearch and WebOpen with their capabilities', async () => {
    const c = await core()
    expect(names(c)).toEqual(expect.arrayContaining(['WebFetch', 'WebOpen', 'WebSearch']))
    expect(c.catalog.get('WebFetch')?.capabilities).toEqual({
      privateData: false,
      untrustedInput: true,
      egress: 'chosen',
      destructive: false
    })
    // Exa's public endpoint is there with no settings: the query goes to it, and only to it.
    expect(c.catalog.get('WebSearch')?.capabilities.egress).toBe('blind')
  })

  it('leaves WebSearch and WebOpen out with --websearch=off or websearch.enabled: false', async () => {
    const off = await core({ websearch: false })
    expect(names(off)).toContain('WebFetch')
    expect(names(off)).not.toContain('WebSearch')
    expect(names(off)).not.toContain('WebOpen')
    const disabled = await core({ settings: 'websearch:\n  enabled: false\n' })
    expect(names(disabled)).not.toContain('WebSearch')
  })

  it('reaches loopback only through the testing seam, never through the environment', async () => {
    const fetchWith = async (options: Parameters<typeof core>[0]): Promise<string> => {
      const tool = (await core(options)).catalog.get('WebFetch')!
      return textOf(await runTool(tool, { url: `${page.origin}/` }))
    }
    expect(await fetchWith({})).toContain('127.0.0.1 is a loopback address')
    // The variable of the old test hatch opens nothing any more, however it is spelled.
    for (const value of ['1', 'true', 'yes']) {
      const env = { MECATL_TEST_ALLOW_LOOPBACK: value, MECATL_ALLOW_LOOPBACK: value }
      expect(await fetchWith({ env })).toContain('127.0.0.1 is a loopback address')
    }
    // Only code that builds the core itself (testing, tests) can widen the guard.
    expect(await fetchWith({ webGuard: { allowLoopback: true } })).toContain('served on loopback')
  })

  it('has no setting, in the user’s file or a project’s, that opens the guard', () => {
    expect(settingsSchema.safeParse({ websearch: { allow_loopback: true } }).success).toBe(false)
    expect(projectSettingsSchema.safeParse({ websearch: { backends: [] } }).success).toBe(false)
  })
})

const hit = (n: number): FakeHit => ({
  title: `Result ${n}`,
  url: `https://example.org/${n}`,
  snippet: `snippet ${n}`
})

describe('the search chain with no settings', () => {
  const stand: LocalServer[] = []
  afterEach(async () => {
    for (const server of stand.splice(0)) await server.close()
  })
  async function track<T extends LocalServer>(server: Promise<T>): Promise<T> {
    const started = await server
    stand.push(started)
    return started
  }
  const search = async (c: Core, query = 'tides'): Promise<string> =>
    textOf(await runTool(c.catalog.get('WebSearch')!, { query }))

  it('searches Exa’s public endpoint anonymously', async () => {
    const exa = await track(fakeExa({ hits: [hit(1)] }))
    const c = await core({ searchEndpoints: { exa: `${exa.origin}/mcp` } })
    expect(await search(c)).toContain(hit(1).url)
    expect(exa.keys.length).toBeGreaterThan(0)
    expect(exa.keys.every((key) => key === '')).toBe(true)
  })

  it('uses Brave with BRAVE_API_KEY in the environment alone, before the anonymous Exa', async () => {
    const brave = await track(fakeBrave({ hits: [hit(2)] }, 'brave-from-env'))
    const exa = await track(fakeExa({ hits: [hit(3)] }))
    const c = await core({
      env: { BRAVE_API_KEY: 'brave-from-env' },
      searchEndpoints: { exa: `${exa.origin}/mcp`, brave: brave.origin }
    })
    const found = await search(c, 'moon phases')
    expect(found).toContain(`from brave (${brave.origin})`)
    expect(found).toContain(hit(2).url)
    expect(brave.seen).toEqual([expect.stringContaining('q=moon+phases')])
    expect(exa.seen).toEqual([])
  })

  it('uses Exa’s paid tier with EXA_API_KEY, and falls back to SearXNG from SEARXNG_URL', async () => {
    const exa = await track(fakeExa({ hits: [hit(4)] }))
    const searx = await track(fakeSearxng({ hits: [hit(5)] }))
    const env = { EXA_API_KEY: 'paid-key', SEARXNG_URL: searx.origin }
    const paid = await core({ env, searchEndpoints: { exa: `${exa.origin}/mcp` } })
    expect(await search(paid)).toContain(hit(4).url)
    expect(exa.keys).toContain('paid-key')
    const down = await core({ env, searchEndpoints: { exa: 'http://127.0.0.1:9/mcp' } })
    const found = await search(down)
    expect(found).toContain(hit(5).url)
    expect(found).toContain('(after exa (http://127.0.0.1:9/mcp)')
  })

  it('has no WebSearch or WebOpen when no backend is left at all, and WebFetch still', async () => {
    const none = await core({ settings: 'websearch:\n  defaults: false\n' })
    expect(names(none)).toContain('WebFetch')
    expect(names(none)).not.toContain('WebSearch')
    expect(names(none)).not.toContain('WebOpen')
    // The environment adds nothing once defaults are off; a listed backend brings both back.
    const keyed = await core({
      env: { BRAVE_API_KEY: 'k' },
      settings: 'websearch:\n  defaults: false\n'
    })
    expect(names(keyed)).not.toContain('WebSearch')
    const listed = await core({
      settings:
        'websearch:\n  defaults: false\n  backends:\n    - kind: searxng\n      url: http://127.0.0.1:9\n'
    })
    expect(names(listed)).toEqual(expect.arrayContaining(['WebOpen', 'WebSearch']))
  })

  it('tries the command line’s JSON backend first', async () => {
    const exa = await track(fakeExa({ hits: [hit(6)] }))
    const searx = await track(fakeSearxng({ hits: [hit(7)] }))
    const c = await core({
      searchEndpoints: { exa: `${exa.origin}/mcp` },
      searchBackend: {
        kind: 'http',
        enabled: true,
        url: `${searx.origin}/search?format=json`,
        query_param: 'q',
        auth: 'none',
        method: 'get'
      }
    })
    expect(await search(c)).toContain(hit(7).url)
    expect(exa.seen).toEqual([])
  })
})
