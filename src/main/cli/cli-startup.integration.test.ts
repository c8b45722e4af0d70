// What a command loads, from the built CLI as a person runs it: only what it uses. `help` loads
// no command and no core; `run` loads its own module and the core but no other command, and no
// MCP SDK while no MCP server is configured. A static import that brings one back fails here
// (docs/architecture.md, Startup).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  ensureCliBuilt,
  makeTempDir,
  repoRoot,
  runCli,
  writeFakeSettings,
  type CliResult
} from '../../../testing/cli-runner'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { loadedModules, modulePreload, type LoadedModules } from '../../../testing/loaded-modules'
import { namedToolServer } from '../../../testing/mcp-test-servers'

let dir: string
let home: string
let workspace: string
let fake: FakeModelServer
let runs = 0

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('cli-startup')
  home = path.join(dir, 'home')
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'README.md'), '# A small project\n')
  fake = await startFakeModelServer({ requireKey: 'sk-test' })
}, 180_000)
afterAll(async () => {
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

/** Runs the built CLI under the module recorder: what it printed, and what it loaded. */
async function recorded(args: string[]): Promise<{ result: CliResult; loaded: LoadedModules }> {
  const log = path.join(dir, `modules-${++runs}.log`)
  const result = await runCli(args, {
    home,
    env: { FAKE_KEY: 'sk-test', MECATL_MODULE_LOG: log, NODE_OPTIONS: `--import=${modulePreload}` }
  })
  return { result, loaded: loadedModules(log, repoRoot) }
}

/** The command modules among `sources`, by command name. */
function commandsIn(sources: Set<string>): string[] {
  return [...sources]
    .map((source) => /^src\/main\/cli\/commands\/([^/]+)\.ts$/.exec(source)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort()
}

describe('what a command of the built CLI loads', () => {
  it('help: the command line alone, no command, no core, no package', async () => {
    const { result, loaded } = await recorded(['help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: npm run -s mecatl')
    expect(loaded.sources).toContain('src/main/cli/main.ts')
    expect(commandsIn(loaded.sources)).toEqual([])
    expect(loaded.sources).not.toContain('src/main/core.ts')
    expect([...loaded.packages]).toEqual([])
  })

  it('run with no MCP server: its own module and the core, no other command, no MCP SDK', async () => {
    fake.setScript([{ text: 'hi' }])
    const settings = await writeFakeSettings(path.join(dir, 'settings.yaml'), fake)
    const { result, loaded } = await recorded([
      'run',
      'say hi',
      '--workspace',
      workspace,
      '--config',
      settings
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('hi')
    expect(commandsIn(loaded.sources)).toEqual(['run'])
    expect(loaded.sources).toContain('src/main/core.ts')
    expect(loaded.packages).not.toContain('@modelcontextprotocol/sdk')
    expect(loaded.sources).not.toContain('src/main/mcp/server-supervisor.ts')
    // Nor what only `serve` uses: the browser server and its WebSocket package.
    expect(loaded.sources).not.toContain('src/main/server/browser-server.ts')
    expect(loaded.packages).not.toContain('ws')
  })

  it('run with an MCP server configured: the SDK is loaded, and the recorder sees it', async () => {
    fake.setScript([{ text: 'hi' }])
    const settings = await writeFakeSettings(path.join(dir, 'settings-mcp.yaml'), fake)
    const base = YAML.parse(await readFile(settings, 'utf8')) as Record<string, unknown>
    await writeFile(
      settings,
      YAML.stringify({ ...base, mcp: [namedToolServer('notes', 'lookup')] })
    )
    const { result, loaded } = await recorded([
      'run',
      'say hi',
      '--workspace',
      workspace,
      '--config',
      settings
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(loaded.packages).toContain('@modelcontextprotocol/sdk')
    expect(loaded.sources).toContain('src/main/mcp/server-supervisor.ts')
    expect(commandsIn(loaded.sources)).toEqual(['run'])
  })
})
