// The OAuth provider behind the test authorization server. The SDK's DemoInMemoryAuthProvider
// cannot test what Mecatl has to survive: it issues no refresh token (exchangeRefreshToken throws
// "Not implemented"), throws plain Errors from verifyAccessToken (requireBearerAuth turns those
// into a 500 with no WWW-Authenticate, so a client never refreshes), matches redirect_uri exactly
// (undoing the SDK handler's RFC 8252 loopback-port relaxation) and has no revokeToken. Its maps
// are private, so this subclass keeps its own and overrides every grant.
import { randomUUID } from 'node:crypto'
import {
  DemoInMemoryAuthProvider,
  DemoInMemoryClientsStore
} from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js'
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js'
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  InvalidTokenError,
  ServerError
} from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js'

/** The loopback redirect a client ID metadata document client is taken to have registered. */
export const CIMD_REDIRECT_URI = 'http://127.0.0.1/callback'

/** How the test provider treats tokens. */
export interface TestProviderOptions {
  accessTtlSec: number
  rotateRefreshTokens: boolean
  revokeFamilyOnReuse: boolean
  clientIdMetadataDocuments: boolean
}

/** A gate on refresh grants; see OAuthMcpServer.holdRefreshes. */
export interface RefreshHold {
  /** How many refresh requests the gate holds right now. */
  readonly held: number
  /** Resolves once `count` refresh requests have reached the gate (at most the gate's n). */
  arrived(count: number): Promise<void>
  /** Lets every held request through now, in arrival order, and opens the gate for good. */
  release(): void
}

interface AccessToken {
  clientId: string
  scopes: string[]
  resource?: URL
  family: string
  expiresAt: number
}

interface RefreshGrant {
  clientId: string
  scopes: string[]
  resource?: URL
  family: string
}

/** The part of express's Response that authorize uses (express ships no types here). */
interface Redirecting {
  redirect(url: string): void
}

/**
 * A client ID metadata document client_id: an https URL with a path (CIMD draft). A real AS
 * fetches the document; this store answers for it with a loopback redirect.
 */
function isMetadataDocumentUrl(clientId: string): boolean {
  if (!URL.canParse(clientId)) return false
  const url = new URL(clientId)
  return url.protocol === 'https:' && url.pathname !== '/' && url.hash === ''
}

class TestClientsStore extends DemoInMemoryClientsStore {
  constructor(private readonly metadataDocuments: boolean) {
    super()
  }

  override async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    const registered = await super.getClient(clientId)
    if (registered || !this.metadataDocuments || !isMetadataDocumentUrl(clientId)) return registered
    return {
      client_id: clientId,
      redirect_uris: [CIMD_REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code']
    }
  }
}

/** A one-shot gate: holds the next `n` arrivals, then lets them all through in order. */
function makeHold(n: number, onDone: () => void): RefreshHold & { pass(): Promise<void> } {
  const waiting: (() => void)[] = []
  const watchers: { count: number; resolve: () => void }[] = []
  let arrivals = 0
  let open = false
  const release = (): void => {
    if (open) return
    open = true
    onDone()
    for (const resolve of waiting.splice(0)) resolve()
    for (const watcher of watchers.splice(0)) watcher.resolve()
  }
  return {
    get held() {
      return waiting.length
    },
    arrived: (count) =>
      open || arrivals >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => watchers.push({ count, resolve })),
    release,
    pass: () => {
      if (open) return Promise.resolve()
      arrivals++
      const done = new Promise<void>((resolve) => waiting.push(resolve))
      for (const watcher of watchers.filter((w) => w.count <= arrivals)) {
        watchers.splice(watchers.indexOf(watcher), 1)
        watcher.resolve()
      }
      if (arrivals >= n) release()
      return done
    }
  }
}

/** The demo provider with refresh, rotation, reuse detection and test hooks. */
export class TestAuthProvider extends DemoInMemoryAuthProvider {
  readonly #options: TestProviderOptions
  readonly #codes = new Map<
    string,
    { client: OAuthClientInformationFull; params: AuthorizationParams }
  >()
  readonly #access = new Map<string, AccessToken>()
  readonly #refresh = new Map<string, RefreshGrant>()
  /** Refresh tokens spent by rotation, with their family, so reuse can be recognised. */
  readonly #spent = new Map<string, string>()
  #hold: (RefreshHold & { pass(): Promise<void> }) | undefined
  #closed = false

  constructor(options: TestProviderOptions) {
    super()
    this.#options = options
    this.clientsStore = new TestClientsStore(options.clientIdMetadataDocuments)
  }

  override async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Redirecting
  ): Promise<void> {
    // The SDK handler already checked redirect_uri with RFC 8252 port relaxation; check again
    // the same way rather than exactly, as the demo does.
    if (!client.redirect_uris.some((uri) => redirectUriMatches(params.redirectUri, uri))) {
      throw new InvalidRequestError('Unregistered redirect_uri')
    }
    const code = randomUUID()
    this.#codes.set(code, { client, params })
    const target = new URL(params.redirectUri)
    target.searchParams.set('code', code)
    if (params.state !== undefined) target.searchParams.set('state', params.state)
    res.redirect(target.href)
  }

  override async challengeForAuthorizationCode(
    _client: OAuthClientInformationFull,
    code: string
  ): Promise<string> {
    const data = this.#codes.get(code)
    if (!data) throw new InvalidGrantError('The authorization code is unknown or already used.')
    return data.params.codeChallenge
  }

  override async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    _redirectUri?: string,
    resource?: URL
  ): Promise<OAuthTokens> {
    const data = this.#codes.get(code)
    if (!data) throw new InvalidGrantError('The authorization code is unknown or already used.')
    if (data.client.client_id !== client.client_id) {
      throw new InvalidGrantError('The authorization code was issued to another client.')
    }
    const granted = data.params.resource
    // RFC 8707: a token for another resource than the one the person consented to is refused.
    if (resource && granted && resource.href !== granted.href) {
      throw new InvalidTargetError(
        `resource ${resource.href} differs from the authorized ${granted.href}`
      )
    }
    this.#codes.delete(code)
    return this.#issue(
      client.client_id,
      data.params.scopes ?? [],
      resource ?? granted,
      randomUUID()
    )
  }

  override async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL
  ): Promise<OAuthTokens> {
    if (this.#hold) await this.#hold.pass()
    if (this.#closed) throw new ServerError('The test authorization server is closing.')
    const grant = this.#refresh.get(refreshToken)
    if (!grant) {
      const family = this.#spent.get(refreshToken)
      // RFC 9700 §4.14.2: a spent refresh token presented again means it leaked; end the family.
      if (family !== undefined && this.#options.revokeFamilyOnReuse) this.#revokeFamily(family)
      throw new InvalidGrantError('The refresh token is invalid, revoked or already used.')
    }
    if (grant.clientId !== client.client_id) {
      throw new InvalidGrantError('The refresh token was issued to another client.')
    }
    if (resource && grant.resource && resource.href !== grant.resource.href) {
      throw new InvalidTargetError(
        `resource ${resource.href} differs from the granted ${grant.resource.href}`
      )
    }
    const narrowed = scopes ?? grant.scopes
    if (narrowed.some((scope) => !grant.scopes.includes(scope))) {
      throw new InvalidGrantError('A refresh cannot widen the granted scopes.')
    }
    if (!this.#options.rotateRefreshTokens) {
      return this.#issue(client.client_id, narrowed, grant.resource, grant.family, refreshToken)
    }
    this.#refresh.delete(refreshToken)
    this.#spent.set(refreshToken, grant.family)
    return this.#issue(client.client_id, narrowed, grant.resource, grant.family)
  }

  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    const data = this.#access.get(token)
    // InvalidTokenError, not Error: requireBearerAuth answers it with 401 and resource_metadata.
    if (!data || data.expiresAt <= Date.now())
      throw new InvalidTokenError('Invalid or expired token')
    return {
      token,
      clientId: data.clientId,
      scopes: data.scopes,
      expiresAt: Math.floor(data.expiresAt / 1000),
      resource: data.resource
    }
  }

  /** Defined so the router serves /revoke (RFC 7009: unknown tokens are not an error). */
  async revokeToken(
    _client: OAuthClientInformationFull,
    request: OAuthTokenRevocationRequest
  ): Promise<void> {
    this.#access.delete(request.token)
    this.#refresh.delete(request.token)
  }

  /** Marks every access token expired, without waiting on a clock. */
  expireAllAccessTokens(): void {
    for (const data of this.#access.values()) data.expiresAt = 0
  }

  /** Forgets every refresh token, as an AS does when a person revokes the app. */
  revokeAllRefreshTokens(): void {
    this.#refresh.clear()
  }

  /** The refresh tokens that would still be honoured. */
  liveRefreshTokens(): string[] {
    return [...this.#refresh.keys()]
  }

  /** Holds the next `n` refresh grants until all `n` have arrived; see OAuthMcpServer. */
  holdRefreshes(n: number): RefreshHold {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`holdRefreshes needs n ≥ 1, got ${n}`)
    if (this.#hold) {
      throw new Error('holdRefreshes: a hold is still waiting; release() it before making another.')
    }
    const hold = makeHold(n, () => {
      if (this.#hold === hold) this.#hold = undefined
    })
    this.#hold = hold
    return hold
  }

  /** Lets held requests go (they then fail) so close() leaves nothing waiting. */
  close(): void {
    this.#closed = true
    this.#hold?.release()
  }

  #issue(
    clientId: string,
    scopes: string[],
    resource: URL | undefined,
    family: string,
    keepRefresh?: string
  ): OAuthTokens {
    const access = randomUUID()
    const expiresAt = Date.now() + this.#options.accessTtlSec * 1000
    this.#access.set(access, { clientId, scopes, resource, family, expiresAt })
    const refresh = keepRefresh ?? randomUUID()
    this.#refresh.set(refresh, { clientId, scopes, resource, family })
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: this.#options.accessTtlSec,
      refresh_token: refresh,
      scope: scopes.join(' ')
    }
  }

  #revokeFamily(family: string): void {
    for (const [token, grant] of this.#refresh)
      if (grant.family === family) this.#refresh.delete(token)
    for (const [token, data] of this.#access) if (data.family === family) this.#access.delete(token)
  }
}
