// Real MCP servers from npm (server-everything, server-filesystem) under the real core.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import {
  latestToolResults,
  startFakeModelServer,
  type Step
} from '../../../testing/fake-model-server'
import type { McpServerSettingsInput } from '../../shared/mcp'
import { createCore, type Core, type CoreOptions } from '../core'
import { createMemoryPair } from '../rpc/memory-transport'
import { defineTool, textOutput, type Tool, type ToolOutput } from '../tools/tool'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'
import { everythingServer, filesystemServer } from '../../../testing/mcp-test-servers'
import { z } from 'zod'
import { plainFacts } from '../../../testing/stand-in-tools'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Setup {
  core: Core
  dir: string
  workspace: string
  config: string
}

async function setup(
  mcp: McpServerSettingsInput[],
  options: Partial<CoreOptions> = {},
  extraSettings: Record<string, unknown> = {}
): Promise<Setup> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-mcp-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'hello\n')
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify({ mcp, ...extraSettings }))
  const core = await createCore({
    dataDir: path.join(dir, 'home'),
    configPath: config,
    host: 'cli',
    interactive: false,
    mcp: { backoff: { initialMs: 50, maxMs: 200, maxAttempts: 3, stableMs: 60_000 } },
    ...options
  })
  cleanups.push(async () => {
    await core.dispose()
    await rm(dir, { recursive: true, force: true })
  })
  return { core, dir, workspace, config }
}

function context(workspace: string, signal = new AbortController().signal) {
  return { sessionId: 't', jail: new PathJail(workspace), reads: new ReadVersions(), signal }
}

async function callTool(s: Setup, name: string, input: unknown): Promise<ToolOutput> {
  const tool = (await s.core.catalogFor(s.workspace)).get(name)
  if (!tool) throw new Error(`no tool ${name}`)
  return tool.call(tool.inputSchema.parse(input), context(s.workspace))
}

function text(output: ToolOutput): string {
  return output.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n')
}

describe('MCP tools in the catalog', () => {
  it('lists both servers’ tools with capabilities mapped from their annotations', async () => {
    const s = await setup([everythingServer(), filesystemServer('.')])
    const tools = (await s.core.catalogFor(s.workspace)).describe()
    const byName = new Map(tools.map((t) => [t.name, t]))

    expect(byName.get('Read')?.source).toBe('builtin')
    expect(byName.get('mcp__everything__echo')).toMatchObject({
      readOnly: true,
      source: 'mcp:everything',
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false }
    })
    expect(byName.get('mcp__everything__gzip-file-as-resource')).toMatchObject({
      readOnly: false,
      capabilities: {
        privateData: true,
        untrustedInput: true,
        egress: 'chosen',
        destructive: false
      }
    })
    expect(byName.get('mcp__filesystem__write_file')).toMatchObject({
      readOnly: false,
      source: 'mcp:filesystem',
      capabilities: { destructive: true, untrustedInput: false, egress: 'none' }
    })
    expect(byName.get('mcp__filesystem__read_text_file')?.readOnly).toBe(true)
    // The model is sent the server's own parameters.
    const echo = (await s.core.catalogFor(s.workspace))
      .modelSchemas()
      .find((t) => t.name === 'mcp__everything__echo')
    expect(echo?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message']
    })
  })

  it('forced capabilities only widen: a read-only tool forced destructive is no longer read-only', async () => {
    const s = await setup([
      everythingServer('everything', { force: { destructive: true, egress: 'blind' } })
    ])
    const echo = (await s.core.catalogFor(s.workspace)).get('mcp__everything__echo')
    expect(echo?.readOnly).toBe(false)
    expect(echo?.capabilities).toMatchObject({ destructive: true, egress: 'blind' })
    const gzip = (await s.core.catalogFor(s.workspace)).get(
      'mcp__everything__gzip-file-as-resource'
    )
    expect(gzip?.capabilities.egress).toBe('chosen')
  })

  it('leaves a tool switched off in the settings out of the catalog, whatever the server', async () => {
    const s = await setup([everythingServer('everything', { disabled_tools: ['echo'] })])
    const catalog = await s.core.catalogFor(s.workspace)
    expect(catalog.get('mcp__everything__echo')).toBeUndefined()
    expect(catalog.get('mcp__everything__get-env')).toBeDefined()
    const view = (await s.core.mcp.status(s.workspace, true)).servers[0]
    expect(view?.offTools.map((t) => t.name)).toEqual(['echo'])
  })

  it('runs servers in the project folder and calls their tools', async () => {
    const s = await setup([everythingServer(), filesystemServer('.')])
    expect(text(await callTool(s, 'mcp__everything__echo', { message: 'hi' }))).toBe('Echo: hi')
    const read = await callTool(s, 'mcp__filesystem__read_text_file', { path: 'notes.txt' })
    expect(read.isError).toBe(false)
    expect(text(read)).toBe('hello\n')
    const outside = await callTool(s, 'mcp__filesystem__read_text_file', { path: '/etc/hostname' })
    expect(outside.isError).toBe(true)
  })

  it('gives a server only the allowlisted environment', async () => {
    const secret = 'sk-mecatl-test-secret-should-never-leak'
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MECATL_TEST_API_KEY: secret,
      KEEP_ME: 'passed through',
      LANG: 'C.UTF-8'
    }
    // The SDK's default inheritance reads these from process.env itself: make sure they are set,
    // so this test fails if they ever reach the child.
    for (const name of ['SHELL', 'TERM', 'USER', 'LOGNAME']) process.env[name] ??= `test-${name}`
    process.env.MECATL_TEST_API_KEY = secret
    cleanups.push(async () => {
      delete process.env.MECATL_TEST_API_KEY
    })
    const s = await setup(
      [everythingServer('everything', { env_passthrough: ['KEEP_ME'], env: { LITERAL: 'lit' } })],
      { env },
      { time_zone: 'Europe/Paris' }
    )
    const output = await callTool(s, 'mcp__everything__get-env', {})
    const childEnv = JSON.parse(text(output)) as Record<string, string>
    // MECATL_JOB: the marker every process of the server carries, so all of them end with it.
    const allowed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'MECATL_TZ', 'KEEP_ME', 'LITERAL']
    allowed.push('MECATL_JOB')
    expect(Object.keys(childEnv).filter((name) => !allowed.includes(name))).toEqual([])
    expect(childEnv).toMatchObject({
      KEEP_ME: 'passed through',
      LITERAL: 'lit',
      MECATL_TZ: 'Europe/Paris',
      LANG: 'C.UTF-8',
      PATH: process.env.PATH
    })
    expect(text(output)).not.toContain(secret)
  })
})

describe('misbehaving servers', () => {
  it('reports a missing command while the other server’s tools remain', async () => {
    const s = await setup([
      { name: 'ghost', command: 'mecatl-no-such-command-4f1e' },
      everythingServer()
    ])
    const names = (await s.core.catalogFor(s.workspace)).list().map((t) => t.name)
    expect(names).toContain('mcp__everything__echo')
    expect(names.some((n) => n.startsWith('mcp__ghost__'))).toBe(false)
    const status = await s.core.mcp.status(s.workspace, true)
    const ghost = status.servers.find((v) => v.name === 'ghost')
    expect(ghost?.state).toBe('failed')
    expect(ghost?.error).toContain('"mecatl-no-such-command-4f1e" was not found')
    expect(status.servers.find((v) => v.name === 'everything')?.state).toBe('ready')
  })

  it('reports a server that exits during startup with what it printed', async () => {
    const s = await setup([
      {
        name: 'crasher',
        command: process.execPath,
        args: ['-e', 'console.error("missing API token"); process.exit(3)']
      }
    ])
    const status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]).toMatchObject({ state: 'failed', tools: [] })
    expect(status.servers[0]?.error).toContain('exited during startup')
    expect(status.servers[0]?.error).toContain('missing API token')
    // Its stderr went to its log, not the terminal.
    const log = await s.core.mcp.log(s.workspace, 'crasher')
    expect(log).toContainEqual(
      expect.objectContaining({ stream: 'stderr', text: 'missing API token' })
    )
  })

  it('gives up on a server that never answers the handshake', async () => {
    const s = await setup(
      [{ name: 'mute', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }],
      { mcp: { startupTimeoutMs: 500 } }
    )
    const status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]?.state).toBe('failed')
    expect(status.servers[0]?.error).toContain('did not answer the MCP handshake')
  })

  it('returns an isError result when the server dies mid-call, then restarts it', async () => {
    const s = await setup([everythingServer()])
    const first = await s.core.mcp.status(s.workspace, true)
    const pid = first.servers[0]?.pid
    expect(pid).toBeGreaterThan(0)
    const tool = (await s.core.catalogFor(s.workspace)).get(
      'mcp__everything__trigger-long-running-operation'
    )
    if (!tool) throw new Error('no long-running tool')
    const pending = tool.call({ duration: 30, steps: 30 }, context(s.workspace))
    process.kill(pid as number, 'SIGKILL')
    const output = await pending
    expect(output.isError).toBe(true)
    expect(text(output)).toMatch(/^MCP call failed: /)

    await expect
      .poll(async () => (await s.core.mcp.status(s.workspace)).servers[0]?.state, {
        timeout: 15_000
      })
      .toBe('ready')
    const again = await s.core.mcp.status(s.workspace)
    expect(again.servers[0]?.restarts).toBe(1)
    expect(again.servers[0]?.pid).not.toBe(pid)
    expect(text(await callTool(s, 'mcp__everything__echo', { message: 'back' }))).toBe('Echo: back')
  })

  it('refuses to run a sandboxed server unconfined when there is no sandbox', async () => {
    const s = await setup([everythingServer('boxed', { sandbox: true })], {
      mcp: { sandbox: null }
    })
    const status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]?.state).toBe('failed')
    expect(status.servers[0]?.error).toMatch(
      /^MCP server `boxed` is configured with `sandbox: true`, but no sandbox backend is available/
    )
    expect(status.servers[0]?.error).toContain(
      'set `sandbox: false` to accept that it runs unconfined'
    )
  })

  it('fails a raw-named server whose tool would shadow one already registered', async () => {
    const echo: Tool = defineTool({
      name: 'echo',
      description: 'A built-in echo',
      inputSchema: z.object({}),
      readOnly: true,
      capabilities: {
        privateData: false,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      },
      source: 'builtin',
      ...plainFacts('echo', true),
      call: async () => textOutput('built-in')
    })
    const s = await setup([everythingServer('raw', { prefix_tools: false })], {
      extraTools: [echo]
    })
    const catalog = await s.core.catalogFor(s.workspace)
    expect(catalog.get('echo')?.source).toBe('builtin')
    expect(catalog.get('get-env')).toBeUndefined()
    const status = await s.core.mcp.status(s.workspace)
    expect(status.servers[0]?.state).toBe('failed')
    expect(status.servers[0]?.error).toContain('set prefix_tools: true')
  })
})

describe('MCP servers in a session', () => {
  it('the model calls an MCP tool through the agent loop and sees its result', async () => {
    const fake = await startFakeModelServer({
      script: [
        { toolCalls: [{ name: 'mcp__everything__echo', input: { message: 'via the loop' } }] },
        (req) => ({ text: `The tool said: ${latestToolResults(req)[0]?.content ?? 'nothing'}` })
      ] satisfies Step[]
    })
    cleanups.push(() => fake.close())
    const s = await setup(
      [everythingServer()],
      { env: { ...process.env, FAKE_KEY: 'k' } },
      {
        providers: [
          { id: 'fake', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
        ],
        default_model: { provider: 'fake', model: 'fake-model' }
      }
    )
    const client = createMemoryPair(s.core.router, s.core.hub)
    cleanups.push(async () => client.close())
    const session = await client.call('session.create', { workspace: s.workspace })
    await client.call('session.send', { sessionId: session.id, text: 'echo something' })
    await s.core.sessions.idle(session.id)
    const { transcript } = await client.call('session.get', { sessionId: session.id })

    const call = transcript.flatMap((i) => (i.kind === 'tool' ? [i.call] : []))[0]
    expect(call).toMatchObject({ name: 'mcp__everything__echo', state: 'done', readOnly: true })
    expect(fake.chatRequests()[0]?.tools).toContain('mcp__everything__echo')
    expect(fake.lastToolResults()[0]?.content).toBe('Echo: via the loop')
    const replies = transcript.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []))
    expect(replies.at(-1)).toBe('The tool said: Echo: via the loop')
  })
})

describe('settings and project servers', () => {
  it('applies saved settings at once: starts added servers and stops removed ones', async () => {
    const s = await setup([everythingServer('one')])
    expect((await s.core.mcp.status(s.workspace, true)).servers.map((v) => v.name)).toEqual(['one'])
    const saved = await s.core.settings.save({ mcp: [everythingServer('two')] })
    expect(saved.saved).toBe(true)
    const names = (await s.core.catalogFor(s.workspace)).list().map((t) => t.name)
    expect(names).toContain('mcp__two__echo')
    expect(names.some((n) => n.startsWith('mcp__one__'))).toBe(false)
  })

  it('a disabled server is not started and offers no tools', async () => {
    const s = await setup([everythingServer('off', { enabled: false })])
    const status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]).toMatchObject({ name: 'off', state: 'disabled', pid: null })
    const names = (await s.core.catalogFor(s.workspace)).list().map((t) => t.name)
    expect(names.some((n) => n.startsWith('mcp__off__'))).toBe(false)
  })

  it('imports servers over the contract, from a file or pasted text', async () => {
    const s = await setup([])
    const client = createMemoryPair(s.core.router, s.core.hub)
    cleanups.push(async () => client.close())
    const file = path.join(s.dir, '.mcp.json')
    await writeFile(file, JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['x'] } } }))
    expect(await client.call('mcp.import', { path: file })).toEqual({
      servers: [{ name: 'fs', command: 'npx', args: ['x'], env: {}, env_passthrough: [] }],
      notes: []
    })
    await expect(client.call('mcp.import', { text: 'not json' })).rejects.toThrow(/not valid JSON/)
    await expect(
      client.call('mcp.import', { path: path.join(s.dir, 'none.json') })
    ).rejects.toThrow(/cannot read/)
  })

  it('refuses passthrough of variables that change how code loads, saying what to do', async () => {
    const s = await setup([])
    const result = await s.core.settings.save({
      mcp: [
        everythingServer('x', { env_passthrough: ['HOME', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES'] })
      ]
    })
    expect(result.saved).toBe(false)
    expect(result.issues.map((i) => i.path)).toEqual([
      'mcp.0.env_passthrough.1',
      'mcp.0.env_passthrough.2'
    ])
    expect(result.issues[0]?.message).toContain('remove it from env_passthrough')
  })

  it('starts a project’s own server only once trusted, and asks again when it changes', async () => {
    const s = await setup([])
    const projectFile = path.join(s.workspace, '.mecatl', 'settings.yaml')
    await mkdir(path.dirname(projectFile))
    await writeFile(projectFile, YAML.stringify({ mcp: [everythingServer('proj')] }))

    let status = await s.core.mcp.status(s.workspace, true)
    expect(status.projectFile).toBe(projectFile)
    expect(status.servers[0]).toMatchObject({ name: 'proj', origin: 'project', state: 'untrusted' })
    expect(await s.core.catalogFor(s.workspace)).toSatisfy(
      (c: { get(name: string): unknown }) => c.get('mcp__proj__echo') === undefined
    )

    await s.core.mcp.setTrust(s.workspace, ['proj'], true)
    status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]?.state).toBe('ready')
    const trustFile = JSON.parse(await readFile(path.join(s.dir, 'home', 'mcp-trust.json'), 'utf8'))
    expect(Object.keys(trustFile)).toEqual([s.workspace])

    await writeFile(
      projectFile,
      YAML.stringify({ mcp: [everythingServer('proj', { env: { CHANGED: '1' } })] })
    )
    status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers[0]?.state).toBe('untrusted')
  })

  it('reports a project server whose name clashes with one of the user’s, and keeps the user’s', async () => {
    const s = await setup([everythingServer('shared')])
    await mkdir(path.join(s.workspace, '.mecatl'))
    await writeFile(
      path.join(s.workspace, '.mecatl', 'settings.yaml'),
      YAML.stringify({ mcp: [{ name: 'shared', command: 'evil' }] })
    )
    const status = await s.core.mcp.status(s.workspace, true)
    expect(status.servers).toHaveLength(1)
    expect(status.servers[0]).toMatchObject({ origin: 'user', state: 'ready' })
    expect(status.issues[0]?.message).toContain('yours is used')
  })

  it('lists resources and prompts, and fetches a prompt’s text', async () => {
    const s = await setup([everythingServer()])
    const view = (await s.core.mcp.status(s.workspace, true)).servers[0]
    expect(view?.resources.length).toBeGreaterThan(0)
    expect(view?.prompts.map((p) => p.name)).toContain('simple-prompt')
    expect(view?.prompts.find((p) => p.name === 'args-prompt')?.arguments).toContainEqual({
      name: 'city',
      description: 'Name of the city',
      required: true
    })
    const prompt = await s.core.mcp.prompt(s.workspace, 'everything', 'args-prompt', {
      city: 'Oaxaca'
    })
    expect(prompt).toContain('Oaxaca')
  })
})
