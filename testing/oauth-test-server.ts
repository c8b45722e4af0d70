// A loopback OAuth 2.1 authorization server and an MCP resource server behind it, built from the
// SDK's own pieces (mcpAuthRouter, mcpAuthMetadataRouter, requireBearerAuth, the demo provider
// subclassed in oauth-test-provider.ts), so the client code is tested against what the SDK's
// authors think a server does. Two origins, as for most hosted MCP servers: discovery has to
// follow the protected resource metadata to another host rather than guess.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js'
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter
} from '@modelcontextprotocol/sdk/server/auth/router.js'
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { z } from 'zod'
import { TestAuthProvider, type RefreshHold } from './oauth-test-provider'

export { CIMD_REDIRECT_URI, type RefreshHold } from './oauth-test-provider'

/** The scope the fixture's servers advertise and grant. */
export const OAUTH_TEST_SCOPE = 'mcp:tools'

/** A client the authorization server knows before any registration. */
export interface PreRegisteredClient {
  client_id: string
  /** With a secret the client authenticates with client_secret_post; without, it is public. */
  client_secret?: string
  /** Loopback redirects match on any port (RFC 8252 §7.3). */
  redirect_uris: string[]
}

/** How the fixture's authorization server behaves. */
export interface OAuthMcpServerOptions {
  /** Lifetime of access tokens; default 3600. expireAllAccessTokens() ends them without a clock. */
  accessTtlSec?: number
  /** Each refresh spends its refresh token and returns a new one (default true). */
  rotateRefreshTokens?: boolean
  /** A spent refresh token presented again revokes its whole family (default true, RFC 9700). */
  revokeFamilyOnReuse?: boolean
  preRegistered?: PreRegisteredClient[]
  /**
   * Advertise `client_id_metadata_document_supported`; any https client_id with a path is then
   * accepted as a public client whose redirect is CIMD_REDIRECT_URI (any loopback port).
   */
  clientIdMetadataDocuments?: boolean
}

/** One request to the token endpoint, with its form fields as the server received them. */
export interface TokenRequest {
  grant?: string
  resource?: string
  clientId?: string
  refreshToken?: string
  /** The whole form body; a field sent twice is an array. */
  body: Record<string, string | string[]>
}

/** The running fixture. */
export interface OAuthMcpServer {
  /** The resource server's origin, e.g. http://127.0.0.1:41234. */
  origin: string
  /** `<origin>/mcp`: streamable HTTP, stateless, behind requireBearerAuth. */
  mcpUrl: string
  /** The authorization server's issuer (its own origin, with a trailing slash). */
  issuer: string
  tokenRequests: TokenRequest[]
  /** The query parameters of every request to /authorize. */
  authorizeRequests: Record<string, string | string[]>[]
  /** The JSON bodies of the dynamic client registrations, in order. */
  registrations: unknown[]
  expireAllAccessTokens(): void
  revokeAllRefreshTokens(): void
  liveRefreshTokens(): string[]
  /**
   * Holds the next `n` refresh grants until `n` have arrived, then lets them through in arrival
   * order: two clients refreshing "at once" without timers. One hold at a time.
   */
  holdRefreshes(n: number): RefreshHold
  /** Closes both servers and every connection; held refreshes are let go first. */
  close(): Promise<void>
}

type Request = http.IncomingMessage & { body?: unknown; auth?: AuthInfo }
type Next = (error?: unknown) => void
type Middleware = (req: Request, res: http.ServerResponse, next: Next) => void | Promise<void>

/** What the fixture uses of an express app (express ships no types and is not a dependency). */
interface App {
  (req: http.IncomingMessage, res: http.ServerResponse): void
  use(handler: unknown): void
  get(path: string, ...handlers: Middleware[]): void
  post(path: string, ...handlers: Middleware[]): void
  all(path: string, ...handlers: Middleware[]): void
}

const FORM_LIMIT = 64 * 1024
const noRateLimit = { rateLimit: false } as const

/** Starts the authorization server and the resource server on 127.0.0.1, ephemeral ports. */
export async function startOAuthMcpServer(
  options: OAuthMcpServerOptions = {}
): Promise<OAuthMcpServer> {
  const provider = new TestAuthProvider({
    accessTtlSec: options.accessTtlSec ?? 3600,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    revokeFamilyOnReuse: options.revokeFamilyOnReuse ?? true,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments ?? false
  })
  for (const client of options.preRegistered ?? []) {
    await provider.clientsStore.registerClient({
      ...client,
      token_endpoint_auth_method: client.client_secret ? 'client_secret_post' : 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code']
    })
  }

  // createMcpExpressApp is the SDK's express factory: loopback Host checks and a JSON parser.
  const asApp: App = createMcpExpressApp()
  const rsApp: App = createMcpExpressApp()
  const servers = [http.createServer(asApp), http.createServer(rsApp)] as const
  try {
    await Promise.all(servers.map(listen))
  } catch (error) {
    await closeAll(servers)
    throw error
  }
  const issuerUrl = new URL(`http://127.0.0.1:${portOf(servers[0])}/`)
  const origin = `http://127.0.0.1:${portOf(servers[1])}`
  const mcpUrl = new URL('/mcp', origin)

  const tokenRequests: TokenRequest[] = []
  const authorizeRequests: Record<string, string | string[]>[] = []
  const registrations: unknown[] = []
  const scopesSupported = [OAUTH_TEST_SCOPE]
  const oauthMetadata = {
    ...createOAuthMetadata({ provider, issuerUrl, scopesSupported }),
    // createOAuthMetadata never emits the flag, so the fixture's metadata route adds it.
    ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {})
  }

  // Observers go ahead of the SDK's router, which then handles the request as usual.
  asApp.all('/authorize', (req, _res, next) => {
    authorizeRequests.push(fields(parseQuery(new URL(req.url ?? '/', issuerUrl).search.slice(1))))
    next()
  })
  asApp.post('/token', async (req, res, next) => {
    const body = await readForm(req, res)
    if (!body) return
    tokenRequests.push({
      grant: single(body.grant_type),
      resource: single(body.resource),
      clientId: single(body.client_id),
      refreshToken: single(body.refresh_token),
      body
    })
    next()
  })
  asApp.post('/register', (req, _res, next) => {
    registrations.push(req.body)
    next()
  })
  asApp.get('/.well-known/oauth-authorization-server', (_req, res) => json(res, oauthMetadata))
  asApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported,
      resourceServerUrl: mcpUrl,
      authorizationOptions: noRateLimit,
      tokenOptions: noRateLimit,
      clientRegistrationOptions: noRateLimit,
      revocationOptions: noRateLimit
    })
  )

  rsApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported }))
  const bearer: Middleware = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    // Tokens minted for another resource are refused (RFC 8707).
    expectedResource: mcpUrl
  })
  rsApp.post('/mcp', bearer, async (req, res) => {
    // Stateless: a server and transport per request, so no session outlives its request.
    const server = buildEchoServer()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, req.body)
  })
  const noStream: Middleware = (_req, res) => {
    res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain; charset=utf-8' })
    res.end('This stateless MCP endpoint takes POST only.')
  }
  // Answered before the bearer check: the SDK client opens this stream right after connect, and a
  // 401 here would start a second authorization next to the one a POST starts.
  rsApp.all('/mcp', noStream)

  return {
    origin,
    mcpUrl: mcpUrl.href,
    issuer: issuerUrl.href,
    tokenRequests,
    authorizeRequests,
    registrations,
    expireAllAccessTokens: () => provider.expireAllAccessTokens(),
    revokeAllRefreshTokens: () => provider.revokeAllRefreshTokens(),
    liveRefreshTokens: () => provider.liveRefreshTokens(),
    holdRefreshes: (n) => provider.holdRefreshes(n),
    close: async () => {
      provider.close()
      await closeAll(servers)
    }
  }
}

function buildEchoServer(): McpServer {
  const server = new McpServer({ name: 'oauth-test', version: '1.0.0' })
  server.registerTool(
    'echo',
    { description: 'Returns the text it is given.', inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text }] })
  )
  return server
}

/**
 * Reads an urlencoded body so the fixture can record it. The SDK's own express.urlencoded then
 * finds the request finished and keeps req.body, as it does after any earlier body parser.
 */
async function readForm(
  req: Request,
  res: http.ServerResponse
): Promise<Record<string, string | string[]> | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return {} // not a form: the SDK's handler answers it
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > FORM_LIMIT) {
      res.writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' })
      res.end(JSON.stringify({ error: 'invalid_request', error_description: 'body over 64 KB' }))
      return undefined
    }
    chunks.push(chunk)
  }
  const body = fields(parseQuery(Buffer.concat(chunks).toString('utf8')))
  req.body = body
  return body
}

/** A parsed query without its undefined entries; a name given twice keeps all its values. */
function fields(parsed: ParsedUrlQuery): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(parsed)) if (value !== undefined) out[name] = value
  return out
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function json(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(value))
}

function listen(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function portOf(server: http.Server): number {
  return (server.address() as AddressInfo).port
}

async function closeAll(servers: readonly http.Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve()
          server.close(() => resolve())
          server.closeAllConnections()
        })
    )
  )
}
