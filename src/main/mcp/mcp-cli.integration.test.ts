// `mecatl tools --json` as a person runs it to smoke-test a newly added server.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { everythingServer } from '../../../testing/mcp-test-servers'

let dir: string
let workspace: string

function mecatl(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { home: path.join(dir, 'home'), cwd: workspace })
}

beforeAll(async () => {
  dir = await makeTempDir('mcp-cli')
  workspace = path.join(dir, 'project')
  await mkdir(path.join(workspace, '.mecatl'), { recursive: true })
  await mkdir(path.join(dir, 'home'))
  await writeFile(
    path.join(dir, 'home', 'settings.yaml'),
    YAML.stringify({
      mcp: [{ name: 'ghost', command: 'mecatl-no-such-command-4f1e' }, everythingServer()]
    })
  )
  await writeFile(
    path.join(workspace, '.mecatl', 'settings.yaml'),
    YAML.stringify({ mcp: [everythingServer('fromrepo')] })
  )
}, 120_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

interface Listed {
  name: string
  source: string
  readOnly: boolean
  capabilities: Record<string, unknown>
}

describe('mecatl tools --json with MCP servers', () => {
  it('lists the servers’ tools with capabilities and reports the failing and untrusted ones on stderr', async () => {
    const result = await mecatl(['tools', '--json'])
    expect(result.code).toBe(0)
    const tools = JSON.parse(result.stdout) as Listed[]
    expect(tools.find((t) => t.name === 'mcp__everything__echo')).toMatchObject({
      source: 'mcp:everything',
      readOnly: true,
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false }
    })
    expect(tools.find((t) => t.name === 'Read')?.source).toBe('builtin')
    expect(tools.some((t) => t.source === 'mcp:ghost' || t.source === 'mcp:fromrepo')).toBe(false)
    expect(result.stderr).toContain(
      'MCP server "ghost" failed: the command "mecatl-no-such-command-4f1e" was not found'
    )
    expect(result.stderr).toContain('MCP server "fromrepo"')
    expect(result.stderr).toContain('is not trusted')
    // Nothing the servers printed on their stderr reaches the terminal.
    expect(result.stderr).not.toContain('Starting default (STDIO) server')
  })

  it('--trust-project runs the project’s own servers for that command', async () => {
    const result = await mecatl(['tools', '--json', '--trust-project'])
    const tools = JSON.parse(result.stdout) as Listed[]
    expect(tools.find((t) => t.name === 'mcp__fromrepo__echo')?.source).toBe('mcp:fromrepo')
    expect(result.stderr).not.toContain('is not trusted')
  })
})
