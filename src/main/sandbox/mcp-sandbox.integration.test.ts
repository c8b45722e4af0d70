// MCP servers with `sandbox: true` run under Shell's backend: they cannot read the person's
// secrets or anything of the home directory, and one that cannot be confined does not start.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { createCore, type Core } from '../core'

const repoRoot = path.resolve(import.meta.dirname, '../../..')
const sdk = path.join(repoRoot, 'node_modules/@modelcontextprotocol/sdk/dist/cjs/server')

/** A server with one tool, `cat`, that answers with a file's text or the error reading it. */
const catServer = `
const { McpServer } = require(${JSON.stringify(path.join(sdk, 'mcp.js'))})
const { StdioServerTransport } = require(${JSON.stringify(path.join(sdk, 'stdio.js'))})
const { z } = require(${JSON.stringify(path.join(repoRoot, 'node_modules/zod'))})
const server = new McpServer({ name: 'cat', version: '1.0.0' })
server.registerTool('cat', { description: 'Reads a file.', inputSchema: { path: z.string() } }, async ({ path }) => {
  try { return { content: [{ type: 'text', text: require('node:fs').readFileSync(path, 'utf8') }] } }
  catch (error) { return { content: [{ type: 'text', text: 'CANNOT ' + error.code }] } }
})
void server.connect(new StdioServerTransport())
`

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function open(
  env: NodeJS.ProcessEnv = {}
): Promise<{ core: Core; workspace: string; home: string }> {
  // Off /tmp, which a sandbox replaces with its own: only the policy decides what is seen here.
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-mcp-sandbox-')))
  const home = path.join(dir, 'home')
  const workspace = path.join(dir, 'project')
  await mkdir(path.join(home, '.ssh'), { recursive: true })
  await writeFile(path.join(home, '.ssh', 'id_test'), 'PLANTED-SECRET-KEY\n')
  await writeFile(path.join(home, 'notes.txt'), 'HOME-NOTES\n')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'readme.txt'), 'PROJECT-README\n')
  const script = path.join(workspace, 'cat-server.cjs')
  await writeFile(script, catServer)
  const config = path.join(dir, 'settings.yaml')
  await writeFile(
    config,
    YAML.stringify({
      mcp: [{ name: 'files', command: 'node', args: [script], sandbox: true }],
      // The server loads the SDK from this checkout, which may sit under /tmp (the sandbox's own).
      sandbox: { readable: [path.join(repoRoot, 'node_modules')] }
    })
  )
  const core = await createCore({
    dataDir: path.join(dir, 'data'),
    configPath: config,
    host: 'cli',
    interactive: false,
    env: { ...process.env, HOME: home, ...env }
  })
  cleanups.push(async () => {
    await core.dispose()
    await rm(dir, { recursive: true, force: true })
  })
  return { core, workspace, home }
}

async function cat(core: Core, workspace: string, file: string): Promise<string> {
  const tool = (await core.catalogFor(workspace)).get('mcp__files__cat')
  if (!tool) throw new Error(JSON.stringify(await core.mcp.status(workspace, true)))
  const output = await tool.call({ path: file }, {
    sessionId: 's',
    signal: new AbortController().signal
  } as never)
  return output.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
}

describe('an MCP server with sandbox: true', () => {
  it('runs confined: the project is there, the home directory and its secrets are not', async () => {
    const { core, workspace, home } = await open()
    expect(await cat(core, workspace, path.join(workspace, 'readme.txt'))).toBe('PROJECT-README\n')
    expect(await cat(core, workspace, path.join(home, '.ssh', 'id_test'))).toMatch(/^CANNOT /)
    expect(await cat(core, workspace, path.join(home, 'notes.txt'))).toMatch(/^CANNOT /)
  })

  it('does not start without a backend, and says how to fix it', async () => {
    const { core, workspace } = await open({ PATH: '/nonexistent' })
    const status = await core.mcp.status(workspace, true)
    expect(status.servers[0]?.state).toBe('failed')
    expect(status.servers[0]?.error).toBe(
      "MCP server `files` is configured with `sandbox: true`, but no sandbox backend is available (bubblewrap is not installed (no bwrap on PATH): install your system's bubblewrap package). Install it, or set `sandbox: false` to accept that it runs unconfined."
    )
  })
})
