// Remote MCP servers behind OAuth under the real core, against the SDK's own authorization
// server pieces and bearer check on 127.0.0.1 (see testing/oauth-test-server.ts).
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import YAML from 'yaml'
import type { McpServerSettingsInput } from '../../shared/mcp'
import { createCore, type Core } from '../core'
import { makeTempDir } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'
import { startOAuthMcpServer, type OAuthMcpServerOptions } from '../../../testing/oauth-test-server'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'

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

async function setup(mcp: McpServerSettingsInput[], dir?: string): Promise<Setup> {
  const root = dir ?? (await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-oauth-'))))
  const workspace = path.join(root, 'project')
  await mkdir(workspace, { recursive: true })
  const config = path.join(root, 'settings.yaml')
  await writeFile(config, YAML.stringify({ mcp }))
  const core = await createCore({
    dataDir: path.join(root, 'home'),
    configPath: config,
    host: 'cli',
    interactive: false
  })
  cleanups.push(async () => {
    await core.dispose()
    if (!dir) await rm(root, { recursive: true, force: true })
  })
  return { core, dir: root, workspace, config }
}

async function authServer(options: OAuthMcpServerOptions = {}) {
  const server = await startOAuthMcpServer(options)
  cleanups.push(() => server.close())
  return server
}

async function view(s: Setup, name = 'secure') {
  const status = await s.core.mcp.status(s.workspace, true)
  const found = status.servers.find((v) => v.name === name)
  if (!found) throw new Error(`no server ${name}`)
  return found
}

/** The person's browser: consent is automatic, so it follows the redirect back to Mecatl. */
async function browse(url: string): Promise<string> {
  const authorize = await fetch(url, { redirect: 'manual' })
  const location = authorize.headers.get('location')
  if (!location) throw new Error(`the authorization page answered ${authorize.status}`)
  return (await fetch(location)).text()
}

async function signIn(s: Setup, name = 'secure'): Promise<void> {
  const url = await s.core.mcp.signIn(s.workspace, name)
  if (!url) throw new Error('no page to sign in on')
  const page = await browse(url)
  expect(page).toContain('You can close this tab')
  await vi.waitFor(async () => expect((await view(s, name)).state).toBe('ready'), {
    timeout: 10_000
  })
}

async function echo(s: Setup, text: string, name = 'secure') {
  const tool = (await s.core.catalogFor(s.workspace)).get(`mcp__${name}__echo`)
  if (!tool) throw new Error('no echo tool')
  const ctx = {
    sessionId: 't',
    jail: new PathJail(s.workspace),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
  const output = await tool.call(tool.inputSchema.parse({ text }), ctx)
  const said = output.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n')
  return { isError: output.isError, said }
}

describe('a remote server behind OAuth', () => {
  it('waits for sign-in without delaying anything, then signs in from the first 401 to its tools', async () => {
    const as = await authServer()
    const s = await setup([{ name: 'secure', url: as.mcpUrl }])
    // Found to want sign-in from its 401 and its metadata; nothing registered yet.
    expect(await view(s)).toMatchObject({
      state: 'needs-sign-in',
      oauth: { state: 'signed-out' },
      tools: []
    })
    expect(as.registrations).toEqual([])
    const names = (await s.core.catalogFor(s.workspace)).list().map((t) => t.name)
    expect(names).toContain('Read')
    expect(names.some((n) => n.startsWith('mcp__secure__'))).toBe(false)

    await signIn(s)
    expect((await view(s)).oauth).toMatchObject({ state: 'signed-in', error: null })
    expect((await echo(s, 'signed in')).said).toContain('signed in')
    // PKCE, registration, and the resource on the authorization request and the code exchange.
    expect(as.registrations).toHaveLength(1)
    expect(as.authorizeRequests[0]).toMatchObject({
      code_challenge_method: 'S256',
      resource: as.mcpUrl
    })
    expect(as.tokenRequests).toEqual([
      expect.objectContaining({ grant: 'authorization_code', resource: as.mcpUrl })
    ])
    // The tokens are in a file only the owner reads, never in the settings file.
    const vault = path.join(s.dir, 'home', 'mcp-oauth.json')
    expect((await stat(vault)).mode & 0o777).toBe(0o600)
    const tokens = JSON.parse(await readFile(vault, 'utf8')) as Record<string, string>
    const stored = Object.values(tokens).join('')
    expect(stored).toContain('access_token')
    const settings = await readFile(s.config, 'utf8')
    expect(settings).not.toContain('access_token')
    expect(settings).not.toContain('refresh_token')
  })

  it('does not start, and says why, when the client secret it names is missing', async () => {
    const as = await authServer()
    delete process.env.MECATL_TEST_ABSENT_SECRET
    const s = await setup([
      {
        name: 'secure',
        url: as.mcpUrl,
        auth: { type: 'oauth', client_id: 'x', client_secret: '${env:MECATL_TEST_ABSENT_SECRET}' }
      }
    ])
    expect(await view(s)).toMatchObject({ state: 'failed', tools: [] })
    expect((await view(s)).error).toContain('MECATL_TEST_ABSENT_SECRET is not set')
    await expect(s.core.mcp.signIn(s.workspace, 'secure')).rejects.toThrow(
      'MECATL_TEST_ABSENT_SECRET is not set'
    )
    expect(as.authorizeRequests).toEqual([])
  })

  it('refuses an answer that does not carry this sign-in’s state (a forged callback)', async () => {
    const as = await authServer()
    const s = await setup([{ name: 'secure', url: as.mcpUrl }])
    expect((await view(s)).state).toBe('needs-sign-in')
    const url = await s.core.mcp.signIn(s.workspace, 'secure')
    if (!url) throw new Error('no page to sign in on')
    const authorize = await fetch(url, { redirect: 'manual' })
    const back = new URL(authorize.headers.get('location') ?? '')
    back.searchParams.set('state', 'forged')
    const page = await (await fetch(back)).text()
    expect(page).toContain('did not carry this sign-in’s state')
    // The code was not exchanged: no token asked for, still not signed in.
    expect(as.tokenRequests).toEqual([])
    await vi.waitFor(async () =>
      expect((await view(s)).oauth).toMatchObject({
        state: 'signed-out',
        error: expect.stringContaining('state')
      })
    )
    expect((await view(s)).state).toBe('needs-sign-in')
  })

  it('refreshes an access token that ran out mid-session, with the resource, and once ahead of expiry', async () => {
    const as = await authServer({ accessTtlSec: 3600 })
    const s = await setup([{ name: 'secure', url: as.mcpUrl }])
    await signIn(s)
    as.expireAllAccessTokens()
    const dbg = await echo(s, 'after expiry')
    if (dbg.isError)
      console.log(
        'DBG',
        await readFile(path.join(s.dir, 'home', 'mcp-oauth.json'), 'utf8'),
        JSON.stringify(as.tokenRequests.map((r) => [r.grant, r.refreshToken, r.resource])),
        JSON.stringify((await s.core.mcp.log(s.workspace, 'secure')).map((l) => l.text))
      )
    expect(dbg).toEqual({ isError: false, said: 'after expiry' })
    const refreshes = as.tokenRequests.filter((r) => r.grant === 'refresh_token')
    expect(refreshes).toHaveLength(1)
    expect(refreshes[0]?.resource).toBe(as.mcpUrl)

    // A token about to run out is refreshed before it is used (the transport would wait for a 401).
    const short = await authServer({ accessTtlSec: 20 })
    const t = await setup([{ name: 'soon', url: short.mcpUrl }])
    await signIn(t, 'soon')
    const before = short.tokenRequests.length
    expect(await echo(t, 'ahead', 'soon')).toEqual({ isError: false, said: 'ahead' })
    // The call refreshed first (its token had under a minute left), spending a live token.
    const ahead = short.tokenRequests.slice(before)
    expect(ahead).toEqual([
      expect.objectContaining({ grant: 'refresh_token', resource: short.mcpUrl })
    ])
    expect(short.liveRefreshTokens()).toHaveLength(1)
  })

  it('turns a revoked login into "needs sign-in" while the session goes on', async () => {
    const as = await authServer()
    const s = await setup([{ name: 'secure', url: as.mcpUrl }])
    await signIn(s)
    as.revokeAllRefreshTokens()
    as.expireAllAccessTokens()
    const result = await echo(s, 'too late')
    expect(result.isError).toBe(true)
    expect(result.said).toContain('needs you to sign in again')
    expect(await view(s)).toMatchObject({ state: 'needs-sign-in', tools: [] })
    // The catalog and the other tools go on; signing in again brings the tools back.
    expect((await s.core.catalogFor(s.workspace)).get('Read')).toBeDefined()
    await signIn(s)
    expect((await echo(s, 'back')).said).toBe('back')
  })

  it('keeps one valid login when two cores refresh at once', async () => {
    const as = await authServer({ revokeFamilyOnReuse: true })
    const a = await setup([{ name: 'secure', url: as.mcpUrl }])
    await signIn(a)
    // A second core on the same data directory (the CLI beside the window) reads the same login.
    const b = await setup([{ name: 'secure', url: as.mcpUrl }], a.dir)
    const vb = await view(b)
    if (vb.state !== 'ready')
      console.log(
        'DBGB',
        JSON.stringify(vb),
        JSON.stringify((await b.core.mcp.log(b.workspace, 'secure')).map((l) => l.text)),
        JSON.stringify(as.tokenRequests.map((r) => [r.grant, r.refreshToken]))
      )
    expect(vb.state).toBe('ready')
    as.expireAllAccessTokens()
    const hold = as.holdRefreshes(2)
    const both = Promise.all([echo(a, 'from a'), echo(b, 'from b')])
    await hold.arrived(1)
    hold.release()
    expect(await both).toEqual([
      { isError: false, said: 'from a' },
      { isError: false, said: 'from b' }
    ])
    // No refresh spent a token already spent: the login the vault holds is alive.
    const refreshes = as.tokenRequests.filter((r) => r.grant === 'refresh_token')
    expect(new Set(refreshes.map((r) => r.refreshToken)).size).toBe(refreshes.length)
    expect(as.liveRefreshTokens()).toHaveLength(1)
    expect((await echo(a, 'still')).said).toBe('still')
  })

  it('uses a pre-registered client id without registering, and does not contact a server nobody signed in to', async () => {
    const as = await authServer({
      preRegistered: [{ client_id: 'mecatl-pre', redirect_uris: ['http://127.0.0.1/callback'] }]
    })
    const s = await setup([
      { name: 'secure', url: as.mcpUrl, auth: { type: 'oauth', client_id: 'mecatl-pre' } }
    ])
    expect(await view(s)).toMatchObject({ state: 'needs-sign-in', oauth: { state: 'signed-out' } })
    expect(as.authorizeRequests).toEqual([])
    await signIn(s)
    expect(as.registrations).toEqual([])
    expect(as.authorizeRequests[0]).toMatchObject({ client_id: 'mecatl-pre' })
    // Sign out forgets the tokens: the server waits for a sign-in again.
    await s.core.mcp.signOut(s.workspace, 'secure')
    expect((await view(s)).state).toBe('needs-sign-in')
    const vault = await readFile(path.join(s.dir, 'home', 'mcp-oauth.json'), 'utf8')
    expect(vault).not.toContain('access_token')
  })

  it('offers a client ID metadata document as its client id where the server takes them', async () => {
    const as = await authServer({ clientIdMetadataDocuments: true })
    const document = 'https://clients.example.org/mecatl/client-metadata.json'
    const auth = { type: 'oauth', client_metadata_url: document } as const
    const s = await setup([{ name: 'secure', url: as.mcpUrl, auth }])
    await signIn(s)
    // The address is the client id: nothing registered, and it goes on every request.
    expect(as.registrations).toEqual([])
    expect(as.authorizeRequests[0]).toMatchObject({ client_id: document, resource: as.mcpUrl })
    expect(as.tokenRequests[0]).toMatchObject({ clientId: document, resource: as.mcpUrl })
    expect((await echo(s, 'by document')).said).toContain('by document')
  })

  it('registers itself where the server takes no metadata documents, with one set', async () => {
    const as = await authServer()
    const auth = {
      type: 'oauth',
      client_metadata_url: 'https://clients.example.org/m.json'
    } as const
    const s = await setup([{ name: 'secure', url: as.mcpUrl, auth }])
    await signIn(s)
    expect(as.registrations).toHaveLength(1)
    expect(as.authorizeRequests[0]?.client_id).not.toContain('https://')
  })
})

describe('mecatl tools with a server that needs sign-in', () => {
  it('lists the rest at once and says the server is left out until someone signs in', async () => {
    const as = await authServer()
    const dir = await makeTempDir('oauth-cli')
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    await mkdir(path.join(dir, 'home'))
    await writeFile(
      path.join(dir, 'home', 'settings.yaml'),
      YAML.stringify({
        mcp: [
          { name: 'asked', url: as.mcpUrl },
          { name: 'explicit', url: as.mcpUrl, auth: { type: 'oauth' } }
        ]
      })
    )
    const result = await runCliInProcess(['tools', '--json'], {
      home: path.join(dir, 'home'),
      cwd: dir
    })
    expect(result.code).toBe(0)
    const tools = JSON.parse(result.stdout) as { name: string }[]
    expect(tools.some((t) => t.name === 'Read')).toBe(true)
    expect(tools.some((t) => t.name.startsWith('mcp__'))).toBe(false)
    expect(result.stderr).toContain(
      'MCP server "asked" is left out: the server "asked" needs you to sign in'
    )
    expect(result.stderr).toContain('MCP server "explicit" is left out')
    // Nobody signed in: nothing registered, no page opened, no token asked for.
    expect(as.registrations).toEqual([])
    expect(as.authorizeRequests).toEqual([])
    expect(as.tokenRequests).toEqual([])
  })
})
