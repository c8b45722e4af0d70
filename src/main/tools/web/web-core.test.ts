import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { projectSettingsSchema, settingsSchema } from '../../../shared/settings'
import { createCore, type Core, type CoreOptions } from '../../core'
import { runTool, startLocalServer, textOf, type LocalServer } from '../../testing/web-test-server'

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
  options: Pick<CoreOptions, 'websearch' | 'env' | 'webGuard'> & { settings?: string } = {}
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
    webGuard: options.webGuard
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
    // No backend configured: the query goes nowhere.
    expect(c.catalog.get('WebSearch')?.capabilities.egress).toBe('none')
  })

  it('leaves WebSearch and WebOpen out with --websearch=off or websearch.enabled: false', async () => {
    const off = await core({ websearch: false })
    expect(names(off)).toContain('WebFetch')
    expect(names(off)).not.toContain('WebSearch')
    expect(names(off)).not.toContain('WebOpen')
    const disabled = await core({ settings: 'websearch:\n  enabled: false\n' })
    expect(names(disabled)).not.toContain('WebSearch')
  })

  it('turns egress on once a backend is configured', async () => {
    const c = await core({
      settings: 'websearch:\n  backends:\n    - kind: searxng\n      url: http://127.0.0.1:9\n'
    })
    expect(c.catalog.get('WebSearch')?.capabilities.egress).toBe('blind')
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
    // Only code that builds the core itself (src/main/testing, tests) can widen the guard.
    expect(await fetchWith({ webGuard: { allowLoopback: true } })).toContain('served on loopback')
  })

  it('has no setting, in the user’s file or a project’s, that opens the guard', () => {
    expect(settingsSchema.safeParse({ websearch: { allow_loopback: true } }).success).toBe(false)
    expect(projectSettingsSchema.safeParse({ websearch: { backends: [] } }).success).toBe(false)
  })
})
