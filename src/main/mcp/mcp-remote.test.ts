// Remote MCP servers under the real core, against the SDK's own server transports on 127.0.0.1.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import YAML from 'yaml'
import type { ToolDisplay } from '../../shared/domain'
import type { McpServerSettingsInput } from '../../shared/mcp'
import { createCore, type Core } from '../core'
import { KeyFile } from '../providers/key-file'
import {
  startRemoteMcpServer,
  type RemoteMcpServerOptions
} from '../../../testing/remote-mcp-server'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Setup {
  core: Core
  workspace: string
  config: string
}

async function setup(
  mcp: McpServerSettingsInput[],
  options: { env?: NodeJS.ProcessEnv; keys?: Record<string, string> } = {}
): Promise<Setup> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-remote-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify({ mcp }))
  const dataDir = path.join(dir, 'home')
  const keys = new KeyFile(dataDir)
  for (const [name, value] of Object.entries(options.keys ?? {})) await keys.store(name, value)
  const core = await createCore({
    dataDir,
    configPath: config,
    host: 'cli',
    interactive: false,
    env: options.env ?? process.env
  })
  cleanups.push(async () => {
    await core.dispose()
    await rm(dir, { recursive: true, force: true })
  })
  return { core, workspace, config }
}

async function fixture(options: RemoteMcpServerOptions) {
  const server = await startRemoteMcpServer(options)
  cleanups.push(() => server.close())
  return server
}

async function serverView(s: Setup, name = 'remote') {
  const status = await s.core.mcp.status(s.workspace, true)
  const view = status.servers.find((v) => v.name === name)
  if (!view) throw new Error(`no server ${name}`)
  return view
}

async function call(
  s: Setup,
  name: string,
  input: unknown,
  signal = new AbortController().signal,
  progress?: (display: ToolDisplay) => void
): Promise<string> {
  const tool = (await s.core.catalogFor(s.workspace)).get(name)
  if (!tool) throw new Error(`no tool ${name}`)
  const jail = new PathJail(s.workspace)
  const ctx = { sessionId: 't', jail, reads: new ReadVersions(), signal, progress }
  const output = await tool.call(tool.inputSchema.parse(input), ctx)
  return output.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
}

describe('a remote MCP server', () => {
  it('is reached over streamable HTTP: its tools join the catalog as sends to a fixed place', async () => {
    const remote = await fixture({ mode: 'streamable', tools: { slow: { openWorldHint: true } } })
    const s = await setup([{ name: 'remote', url: remote.url }])
    const view = await serverView(s)
    expect(view).toMatchObject({ state: 'ready', transport: 'http', url: remote.url, pid: null })
    expect(await call(s, 'mcp__remote__echo', { text: 'over the wire' })).toContain('over the wire')
    const catalog = await s.core.catalogFor(s.workspace)
    // What the model passes a remote tool leaves the machine, to the address the settings fixed.
    expect(catalog.get('mcp__remote__echo')?.capabilities).toEqual({
      privateData: true,
      untrustedInput: false,
      egress: 'blind',
      destructive: false
    })
    // An open-world tool brings in untrusted content and sends where the model aims.
    expect(catalog.get('mcp__remote__slow')?.capabilities).toMatchObject({
      untrustedInput: true,
      egress: 'chosen'
    })
    expect(remote.requests.some((r) => r.method === 'POST' && r.path === '/mcp')).toBe(true)
  })

  it('leaves the tools switched off out of the catalog, and lists them as off', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url, disabled_tools: ['slow'] }])
    const view = await serverView(s)
    expect(view.tools.map((t) => t.name)).toEqual(['mcp__remote__echo'])
    expect(view.toolNames).toEqual({ mcp__remote__echo: 'echo' })
    expect(view.offTools.map((t) => t.name)).toEqual(['slow'])
    const catalog = await s.core.catalogFor(s.workspace)
    expect(catalog.get('mcp__remote__slow')).toBeUndefined()
    expect(catalog.modelSchemas().some((t) => t.name === 'mcp__remote__slow')).toBe(false)
    expect(await call(s, 'mcp__remote__echo', { text: 'still here' })).toContain('still here')
  })

  it('falls back to the legacy SSE transport for an old server, and says so in its log', async () => {
    const old = await fixture({ mode: 'sse-only' })
    const s = await setup([{ name: 'remote', url: old.url }])
    const view = await serverView(s)
    expect(view).toMatchObject({ state: 'ready', transport: 'sse' })
    expect(await call(s, 'mcp__remote__echo', { text: 'old but fine' })).toContain('old but fine')
    const log = await s.core.mcp.log(s.workspace, 'remote')
    expect(log.map((line) => line.text).join('\n')).toContain('trying the legacy SSE transport')
  })

  it('sends the headers on the legacy SSE transport too: its event stream and its posts', async () => {
    const old = await fixture({
      mode: 'sse-only',
      requireHeader: { name: 'x-api-key', value: 'sse-secret' }
    })
    const s = await setup(
      [{ name: 'remote', url: old.url, headers: { 'X-Api-Key': '${env:REMOTE_SSE_KEY}' } }],
      { env: { ...process.env, REMOTE_SSE_KEY: 'sse-secret' } }
    )
    expect((await serverView(s)).transport).toBe('sse')
    expect(await call(s, 'mcp__remote__echo', { text: 'both ways' })).toContain('both ways')
    const sse = old.requests.filter((r) => r.method === 'GET' || r.path.startsWith('/messages'))
    expect(sse.length).toBeGreaterThan(1)
    for (const request of sse) expect(request.headers['x-api-key']).toBe('sse-secret')
  })

  it('speaks only the transport set: streamable HTTP to an old server fails with what to change', async () => {
    const old = await fixture({ mode: 'sse-only' })
    const s = await setup([{ name: 'remote', url: old.url, transport: 'http' }])
    const view = await serverView(s)
    expect(view.state).toBe('failed')
    expect(view.error).toMatch(/HTTP 40[45]/)
    expect(view.error).toContain('transport: sse')
    const sse = await setup([{ name: 'remote', url: old.url, transport: 'sse' }])
    expect((await serverView(sse)).state).toBe('ready')
  })

  it('sends headers whose secrets come by reference, from the environment and the key store', async () => {
    const remote = await fixture({
      mode: 'streamable',
      requireHeader: { name: 'x-api-key', value: 'env-secret-123' }
    })
    const s = await setup(
      [
        {
          name: 'remote',
          url: remote.url,
          headers: { 'X-Api-Key': '${env:REMOTE_TEST_KEY}', 'X-Client': 'mecatl' },
          auth: { type: 'bearer', token: '${secret:REMOTE_BEARER}' }
        }
      ],
      {
        env: { ...process.env, REMOTE_TEST_KEY: 'env-secret-123' },
        keys: { REMOTE_BEARER: 'stored-456' }
      }
    )
    expect((await serverView(s)).state).toBe('ready')
    const sent = remote.requests.find((r) => r.method === 'POST')
    expect(sent?.headers).toMatchObject({
      'x-api-key': 'env-secret-123',
      'x-client': 'mecatl',
      authorization: 'Bearer stored-456'
    })
    expect(remote.unauthorized).toEqual([])
    // The settings file holds the references, never the values.
    const written = await readFile(s.config, 'utf8')
    expect(written).not.toContain('env-secret-123')
    expect(written).not.toContain('stored-456')
  })

  it('is not reached at all while a referenced secret is missing, and says which', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const env = { ...process.env }
    delete env.REMOTE_TEST_ABSENT
    const s = await setup(
      [
        {
          name: 'remote',
          url: remote.url,
          headers: { Authorization: 'Bearer ${env:REMOTE_TEST_ABSENT}' }
        }
      ],
      { env }
    )
    const view = await serverView(s)
    expect(view.state).toBe('failed')
    expect(view.error).toContain('REMOTE_TEST_ABSENT is not set')
    // No request went out with a hole where the secret should be.
    expect(remote.requests).toEqual([])
  })

  it('says what is wrong when the server wants credentials, or nothing listens', async () => {
    const locked = await fixture({
      mode: 'streamable',
      requireHeader: { name: 'authorization', value: 'Bearer right' }
    })
    const free = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port
        probe.close(() => resolve(port))
      })
    })
    const s = await setup(
      [
        { name: 'locked', url: locked.url },
        { name: 'wrong', url: locked.url, auth: { type: 'bearer', token: '${env:REMOTE_WRONG}' } },
        { name: 'gone', url: `http://127.0.0.1:${free}/mcp` }
      ],
      { env: { ...process.env, REMOTE_WRONG: 'wrong' } }
    )
    expect((await serverView(s, 'locked')).error).toContain('asks for authorization (HTTP 401)')
    expect((await serverView(s, 'wrong')).error).toContain(
      'refused the credentials sent (HTTP 401)'
    )
    expect((await serverView(s, 'gone')).error).toContain('refused the connection')
    // A server that failed leaves the rest of the catalog working.
    const names = (await s.core.catalogFor(s.workspace)).list().map((t) => t.name)
    expect(names).toContain('Read')
  })

  it('is offered the project folder as its root, and its new tools join the catalog live', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url }])
    expect((await serverView(s)).state).toBe('ready')
    await remote.streamOpen()
    expect(await remote.listRoots()).toEqual({
      roots: [{ uri: pathToFileURL(s.workspace).href, name: path.basename(s.workspace) }]
    })
    remote.addTool('added', 'A tool the server added while connected.')
    await vi.waitFor(
      async () =>
        expect((await s.core.catalogFor(s.workspace)).get('mcp__remote__added')).toBeDefined(),
      { timeout: 10_000 }
    )
  })

  it('sends the server a cancel for its running call when the turn stops', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url }])
    const stop = new AbortController()
    const running = call(s, 'mcp__remote__slow', {}, stop.signal)
    await vi.waitFor(() => expect(remote.slowCalls).toHaveLength(1), { timeout: 10_000 })
    stop.abort()
    expect(await running).toContain('the call was stopped')
    await vi.waitFor(() => expect(remote.cancelled).toEqual(remote.slowCalls), { timeout: 10_000 })
    // The server goes on serving.
    expect(await call(s, 'mcp__remote__echo', { text: 'after' })).toContain('after')
  })

  it("shows the server's progress reports on the call's card while it runs, and none after", async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url }])
    const shown: ToolDisplay[] = []
    const running = call(s, 'mcp__remote__slow', { steps: 3 }, undefined, (d) => shown.push(d))
    await vi.waitFor(() => expect(remote.progressSent).toBe(3), { timeout: 10_000 })
    // The newest report reaches the card, however fast they came.
    const last = { kind: 'progress', progress: 3, total: 3, message: 'step 3' }
    await vi.waitFor(() => expect(shown.at(-1)).toEqual(last), { timeout: 10_000 })
    expect(shown.length).toBeLessThanOrEqual(3)
    remote.release()
    expect(await running).toContain('released')
    const count = shown.length
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(shown).toHaveLength(count)
  })

  it('asks for no progress where no card shows it', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url }])
    const running = call(s, 'mcp__remote__slow', { steps: 3 })
    await vi.waitFor(() => expect(remote.slowCalls).toHaveLength(1), { timeout: 10_000 })
    remote.release()
    expect(await running).toContain('released')
    expect(remote.progressSent).toBe(0)
  })

  it('gives up a call at once when the server dies in the middle of it, and says so', async () => {
    const remote = await fixture({ mode: 'streamable' })
    const s = await setup([{ name: 'remote', url: remote.url }])
    const running = call(s, 'mcp__remote__slow', {})
    await vi.waitFor(() => expect(remote.slowCalls).toHaveLength(1), { timeout: 10_000 })
    await remote.crash()
    // Not the 120 s request timeout: the cut stream makes Mecatl ask, and nobody answers.
    expect(await running).toContain('went away during the call')
    const view = await serverView(s)
    expect(view.state).not.toBe('ready')
    expect(view.error ?? '').not.toBe('')
  }, 20_000)
})
