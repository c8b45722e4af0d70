// The OAuth fixture, driven by the SDK's own client: what a test of Mecatl's remote MCP client can
// rely on it to do. The "browser" is fetch with redirect: 'manual'; consent is automated.
import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  UnauthorizedError,
  type OAuthClientProvider
} from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js'
import {
  startOAuthMcpServer,
  type OAuthMcpServer,
  type OAuthMcpServerOptions
} from './oauth-test-server'

const opened: OAuthMcpServer[] = []
const clients: Client[] = []

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  for (const server of opened.splice(0)) await server.close()
})

async function start(options?: OAuthMcpServerOptions): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer(options)
  opened.push(server)
  return server
}

/** A minimal in-memory client provider; the browser step reads the code off the redirect. */
class TestClientProvider implements OAuthClientProvider {
  stored?: OAuthTokens
  info?: OAuthClientInformationMixed
  verifier?: string
  expectedState?: string
  code?: string
  redirects = 0
  readonly clientMetadataUrl?: string
  saveClientInformation?: (info: OAuthClientInformationMixed) => void

  constructor(
    readonly redirectUrl: string,
    private readonly preRegistered?: OAuthClientInformationMixed,
    clientMetadataUrl?: string
  ) {
    if (clientMetadataUrl) this.clientMetadataUrl = clientMetadataUrl
    // Without saveClientInformation the SDK never registers: that is how a pre-registered id works.
    if (!preRegistered) this.saveClientInformation = (info) => (this.info = info)
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Mecatl test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none'
    }
  }
  state(): string {
    this.expectedState = crypto.randomUUID()
    return this.expectedState
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.preRegistered ?? this.info
  }
  tokens(): OAuthTokens | undefined {
    return this.stored
  }
  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }
  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved')
    return this.verifier
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined
    if (scope === 'all' || scope === 'client') this.info = undefined
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.redirects++
    const res = await fetch(url, { redirect: 'manual' })
    const location = res.headers.get('location')
    if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}`)
    const back = new URL(location)
    expect(back.origin + back.pathname).toBe(new URL(this.redirectUrl).origin + '/callback')
    expect(back.searchParams.get('state')).toBe(this.expectedState)
    this.code = back.searchParams.get('code') ?? undefined
  }
}

function transportFor(
  server: OAuthMcpServer,
  provider: OAuthClientProvider
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(server.mcpUrl), { authProvider: provider })
}

/** First 401 → discovery → (registration) → PKCE → code → finishAuth → a connected Client. */
async function signIn(server: OAuthMcpServer, provider: TestClientProvider): Promise<Client> {
  const first = transportFor(server, provider)
  await expect(new Client({ name: 't', version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError
  )
  if (!provider.code) throw new Error('the browser step got no code')
  await first.finishAuth(provider.code)
  const client = new Client({ name: 't', version: '1' })
  clients.push(client)
  await client.connect(transportFor(server, provider))
  return client
}

async function echo(client: Client, text: string): Promise<unknown> {
  const result = await client.callTool({ name: 'echo', arguments: { text } })
  return result.content
}

function postToken(server: OAuthMcpServer, form: Record<string, string>): Promise<Response> {
  return fetch(new URL('/token', server.issuer), {
    method: 'POST',
    body: new URLSearchParams(form)
  })
}

describe('startOAuthMcpServer', () => {
  it('takes the SDK client from the first 401 to tools, with resource on authorize, code and refresh', async () => {
    const server = await start()
    expect(new URL(server.issuer).origin).not.toBe(server.origin)
    const provider = new TestClientProvider('http://127.0.0.1:49152/callback')
    const client = await signIn(server, provider)

    expect(server.registrations).toHaveLength(1)
    expect(server.authorizeRequests).toHaveLength(1)
    expect(server.authorizeRequests[0]).toMatchObject({
      resource: server.mcpUrl,
      code_challenge_method: 'S256',
      redirect_uri: 'http://127.0.0.1:49152/callback'
    })
    expect(server.tokenRequests).toEqual([
      expect.objectContaining({ grant: 'authorization_code', resource: server.mcpUrl })
    ])
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('echo')
    expect(await echo(client, 'hi')).toEqual([{ type: 'text', text: 'hi' }])

    const before = provider.stored?.refresh_token
    server.expireAllAccessTokens()
    expect(await echo(client, 'after expiry')).toEqual([{ type: 'text', text: 'after expiry' }])
    expect(server.tokenRequests.at(-1)).toMatchObject({
      grant: 'refresh_token',
      resource: server.mcpUrl,
      refreshToken: before
    })
    expect(provider.stored?.refresh_token).not.toBe(before)
    expect(server.liveRefreshTokens()).toEqual([provider.stored?.refresh_token])
    expect(provider.redirects).toBe(1)
  })

  it('turns a revoked refresh token into UnauthorizedError: the SDK wants a new sign-in', async () => {
    const server = await start()
    const provider = new TestClientProvider('http://127.0.0.1:49153/callback')
    const client = await signIn(server, provider)
    server.revokeAllRefreshTokens()
    server.expireAllAccessTokens()
    await expect(echo(client, 'x')).rejects.toBeInstanceOf(UnauthorizedError)
    expect(server.tokenRequests.at(-1)).toMatchObject({ grant: 'refresh_token' })
    expect(provider.redirects).toBe(2)
    expect(provider.stored).toBeUndefined()
  })

  it('answers a missing or unknown bearer token with 401 and resource_metadata', async () => {
    const server = await start()
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const res = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(authorization ? { Authorization: authorization } : {})
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain(
        `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`
      )
    }
    const prm = (await (
      await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as { resource: string; authorization_servers: string[] }
    expect(prm).toMatchObject({ resource: server.mcpUrl, authorization_servers: [server.issuer] })
  })

  it('uses a pre-registered client without registration, on any loopback port', async () => {
    const server = await start({
      preRegistered: [{ client_id: 'mecatl-pre', redirect_uris: ['http://127.0.0.1/callback'] }]
    })
    const provider = new TestClientProvider('http://127.0.0.1:53682/callback', {
      client_id: 'mecatl-pre'
    })
    const client = await signIn(server, provider)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo')
    expect(server.registrations).toHaveLength(0)
    expect(server.tokenRequests.map((request) => request.clientId)).toEqual(['mecatl-pre'])
  })

  it('refuses a redirect whose path, host or scheme differs from the registered loopback one', async () => {
    const server = await start({
      preRegistered: [{ client_id: 'mecatl-pre', redirect_uris: ['http://127.0.0.1/callback'] }]
    })
    const evil = [
      'http://127.0.0.1:5000/callback/../steal',
      'http://127.0.0.1:5000/other',
      'http://localhost:5000/callback',
      'https://127.0.0.1:5000/callback',
      'http://127.0.0.1.attacker.example/callback'
    ]
    for (const redirect of evil) {
      const url = new URL('/authorize', server.issuer)
      url.search = new URLSearchParams({
        client_id: 'mecatl-pre',
        redirect_uri: redirect,
        response_type: 'code',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256'
      }).toString()
      const res = await fetch(url, { redirect: 'manual' })
      expect({ redirect, status: res.status }).toEqual({ redirect, status: 400 })
    }
  })

  it('refuses a token for another resource than the one authorized, at the code and at refresh', async () => {
    const server = await start({
      preRegistered: [{ client_id: 'pre', redirect_uris: ['http://127.0.0.1/callback'] }]
    })
    const verifier = 'v'.repeat(64)
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const code = async (): Promise<string> => {
      const url = new URL('/authorize', server.issuer)
      url.search = new URLSearchParams({
        client_id: 'pre',
        redirect_uri: 'http://127.0.0.1:5000/callback',
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: server.mcpUrl
      }).toString()
      const res = await fetch(url, { redirect: 'manual' })
      return new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? ''
    }
    const exchange = (resource: string, value: string): Promise<Response> =>
      postToken(server, {
        grant_type: 'authorization_code',
        code: value,
        code_verifier: verifier,
        client_id: 'pre',
        redirect_uri: 'http://127.0.0.1:5000/callback',
        resource
      })
    const other = `${server.origin}/other`
    const refused = await exchange(other, await code())
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: 'invalid_target' })
    expect(server.tokenRequests.at(-1)?.resource).toBe(other)

    const tokens = (await (await exchange(server.mcpUrl, await code())).json()) as OAuthTokens
    const refresh = (resource: string): Promise<Response> =>
      postToken(server, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: 'pre',
        resource
      })
    expect(await (await refresh(other)).json()).toMatchObject({ error: 'invalid_target' })
    expect((await refresh(server.mcpUrl)).status).toBe(200)
  })

  it('accepts a client ID metadata document URL as client_id when asked to', async () => {
    const server = await start({ clientIdMetadataDocuments: true })
    const meta = (await (
      await fetch(new URL('/.well-known/oauth-authorization-server', server.issuer))
    ).json()) as Record<string, unknown>
    expect(meta.client_id_metadata_document_supported).toBe(true)
    const documentUrl = 'https://client.example/oauth/metadata.json'
    const provider = new TestClientProvider(
      'http://127.0.0.1:49154/callback',
      undefined,
      documentUrl
    )
    const client = await signIn(server, provider)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo')
    expect(server.registrations).toHaveLength(0)
    expect(server.tokenRequests[0]?.clientId).toBe(documentUrl)
  })

  it('rotates refresh tokens: the old one no longer works, and its reuse ends the family', async () => {
    const server = await start()
    const provider = new TestClientProvider('http://127.0.0.1:49155/callback')
    await signIn(server, provider)
    const clientId = provider.info?.client_id ?? ''
    const old = provider.stored?.refresh_token ?? ''
    const fresh = await postToken(server, {
      grant_type: 'refresh_token',
      refresh_token: old,
      client_id: clientId
    })
    expect(fresh.status).toBe(200)
    const rotated = ((await fresh.json()) as OAuthTokens).refresh_token
    expect(rotated).toBeTruthy()
    expect(rotated).not.toBe(old)
    const reuse = await postToken(server, {
      grant_type: 'refresh_token',
      refresh_token: old,
      client_id: clientId
    })
    expect(reuse.status).toBe(400)
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' })
    expect(server.liveRefreshTokens()).toEqual([]) // RFC 9700: the rotated one died with it
  })

  it('keeps the family on reuse when told to, and can leave rotation off', async () => {
    const keep = await start({ revokeFamilyOnReuse: false })
    const a = new TestClientProvider('http://127.0.0.1:49156/callback')
    await signIn(keep, a)
    const form = {
      grant_type: 'refresh_token',
      refresh_token: a.stored?.refresh_token ?? '',
      client_id: a.info?.client_id ?? ''
    }
    const rotated = ((await (await postToken(keep, form)).json()) as OAuthTokens).refresh_token
    expect((await postToken(keep, form)).status).toBe(400)
    expect(keep.liveRefreshTokens()).toEqual([rotated])

    const fixed = await start({ rotateRefreshTokens: false })
    const b = new TestClientProvider('http://127.0.0.1:49157/callback')
    await signIn(fixed, b)
    const same = {
      grant_type: 'refresh_token',
      refresh_token: b.stored?.refresh_token ?? '',
      client_id: b.info?.client_id ?? ''
    }
    for (let i = 0; i < 2; i++) {
      const res = await postToken(fixed, same)
      expect(res.status).toBe(200)
      expect(((await res.json()) as OAuthTokens).refresh_token).toBe(same.refresh_token)
    }
  })

  it('holdRefreshes(2) holds two refreshes until both arrived, then lets them through in order', async () => {
    const server = await start()
    const provider = new TestClientProvider('http://127.0.0.1:49158/callback')
    await signIn(server, provider)
    const form = {
      grant_type: 'refresh_token',
      refresh_token: provider.stored?.refresh_token ?? '',
      client_id: provider.info?.client_id ?? ''
    }
    const hold = server.holdRefreshes(2)
    let firstAnswered = false
    const first = postToken(server, form).then((res) => {
      firstAnswered = true
      return res
    })
    await hold.arrived(1)
    // A whole request to the same server goes and comes back meanwhile: the refresh stays held.
    expect(
      (await fetch(new URL('/.well-known/oauth-authorization-server', server.issuer))).ok
    ).toBe(true)
    expect(hold.held).toBe(1)
    expect(firstAnswered).toBe(false)

    const second = postToken(server, form)
    const [one, two] = await Promise.all([first, second])
    expect(hold.held).toBe(0)
    expect(one.status).toBe(200) // the first to arrive spends the token
    expect(await two.json()).toMatchObject({ error: 'invalid_grant' })
    expect(server.liveRefreshTokens()).toEqual([]) // the reuse ended the family
    // The gate is spent: the next refresh is not held.
    const after = await postToken(server, form)
    expect(after.status).toBe(400)
  })

  it('shows why two naive refreshes at once lose the login (the race Mecatl must avoid)', async () => {
    const server = await start()
    const provider = new TestClientProvider('http://127.0.0.1:49159/callback')
    const a = await signIn(server, provider)
    const b = new Client({ name: 't', version: '1' })
    clients.push(b)
    await b.connect(transportFor(server, provider))
    server.expireAllAccessTokens()
    server.holdRefreshes(2)
    const results = await Promise.allSettled([echo(a, 'a'), echo(b, 'b')])
    expect(results.some((result) => result.status === 'rejected')).toBe(true)
    expect(server.liveRefreshTokens()).toEqual([])
  })

  it('closes every listening socket, even with a refresh held', async () => {
    const listening = (): number =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length
    const baseline = listening()
    const server = await startOAuthMcpServer({
      preRegistered: [{ client_id: 'c', redirect_uris: ['http://127.0.0.1/callback'] }]
    })
    expect(listening()).toBe(baseline + 2)
    const hold = server.holdRefreshes(2)
    const held = postToken(server, {
      grant_type: 'refresh_token',
      refresh_token: 'r',
      client_id: 'c'
    })
    await hold.arrived(1)
    expect(hold.held).toBe(1)
    await server.close()
    expect(hold.held).toBe(0)
    expect(listening()).toBe(baseline)
    await held.then(
      (res) => expect(res.status).toBeGreaterThanOrEqual(400),
      (error: unknown) => expect(error).toBeInstanceOf(TypeError)
    )
  })
})
