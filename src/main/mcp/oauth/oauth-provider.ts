import { randomBytes } from 'node:crypto'
import type {
  OAuthClientProvider,
  OAuthDiscoveryState
} from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js'
import type { OAuthRecord, OAuthVault } from './oauth-vault'

/** A client id the server's owner registered for Mecatl (settings `auth.client_id`). */
export interface PreRegisteredClient {
  client_id: string
  client_secret?: string
}

/** What one sign-in the person started waits on: where the browser is sent back, and its state. */
export interface SignInTurn {
  /** The loopback address Mecatl listens on for this sign-in only. */
  redirectUrl: string
  /** Opens the authorization page for the person (the system browser, or the window's). */
  open: (url: URL) => void
}

/** Where no sign-in is running: never undefined, which would make the SDK skip the browser. */
const IDLE_REDIRECT = 'http://127.0.0.1/callback'

/**
 * The SDK's OAuth client provider for one remote server: its record in the vault (read fresh
 * each time, so another process's rotation is seen), a pre-registered client where the settings
 * give one (no registration is then attempted), PKCE verifier and state in memory for the one
 * sign-in running. The SDK asks to send the person to the authorization page whenever it has no
 * usable tokens, also after a refresh failed in the middle of a turn: only a sign-in the person
 * started opens a page; any other time the server is marked as needing sign-in.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  /** The sign-in the person started, while it runs. */
  turn: SignInTurn | null = null
  /** Set when the SDK wanted a sign-in that nobody started (see class doc). */
  needsSignIn = false
  private verifier = ''
  private expectedState: string | null = null
  readonly saveClientInformation?: (information: OAuthClientInformationMixed) => Promise<void>

  constructor(
    private readonly vault: OAuthVault,
    readonly key: string,
    private readonly options: {
      client?: PreRegisteredClient
      scopes?: readonly string[]
      /** A client ID metadata document's address (settings `auth.client_metadata_url`). */
      metadataUrl?: string
    }
  ) {
    // Only a client Mecatl registers itself is saved; a pre-registered one is never replaced by
    // a registration (the SDK reads the absence of this method so).
    if (!options.client) {
      this.saveClientInformation = (information) => this.update({ clientInformation: information })
    }
  }

  get redirectUrl(): string {
    return this.turn?.redirectUrl ?? IDLE_REDIRECT
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Mecatl Desktop',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.options.client?.client_secret
        ? 'client_secret_post'
        : 'none',
      ...(this.options.scopes?.length ? { scope: this.options.scopes.join(' ') } : {})
    }
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url')
    return this.expectedState
  }

  /** Whether `state` is the one sent with this sign-in's authorization request. */
  stateMatches(state: string | null): boolean {
    return this.expectedState !== null && state === this.expectedState
  }

  /** Offered as the client id to an authorization server that takes metadata documents. */
  get clientMetadataUrl(): string | undefined {
    return this.options.metadataUrl
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.options.client) return this.options.client
    const stored = this.record().clientInformation
    // A document address saved as the client id under an older setting is not this client.
    if (stored && isHttpsUrl(stored.client_id) && stored.client_id !== this.options.metadataUrl) {
      return undefined
    }
    return stored
  }

  tokens(): OAuthTokens | undefined {
    return this.record().tokens
  }

  /** When the access token runs out (ms since the epoch), if the server said. */
  expiresAt(): number | null {
    return this.record().tokens?.expires_at ?? null
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expires =
      tokens.expires_in === undefined ? {} : { expires_at: Date.now() + tokens.expires_in * 1000 }
    this.needsSignIn = false
    await this.update({ tokens: { ...tokens, ...expires } })
  }

  redirectToAuthorization(url: URL): void {
    if (this.turn) this.turn.open(url)
    else this.needsSignIn = true
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    return this.verifier
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.update({ discoveryState: state })
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record().discoveryState
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'
  ): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = ''
      return
    }
    await this.vault.update(this.key, (record) => {
      const kept = { ...record }
      if (scope === 'all' || scope === 'tokens') delete kept.tokens
      if (scope === 'all' || scope === 'client') delete kept.clientInformation
      if (scope === 'all' || scope === 'discovery') delete kept.discoveryState
      return kept
    })
  }

  /** Forgets the sign-in (Sign out): tokens, registration and discovery. */
  async forget(): Promise<void> {
    this.needsSignIn = false
    await this.vault.write(this.key, null)
  }

  private record(): OAuthRecord {
    return this.vault.read(this.key)
  }

  private async update(patch: Partial<OAuthRecord>): Promise<void> {
    await this.vault.update(this.key, (record) => ({ ...record, ...patch }))
  }
}

/** Whether a client id is a metadata document's address rather than one a server issued. */
function isHttpsUrl(clientId: string): boolean {
  return URL.canParse(clientId) && new URL(clientId).protocol === 'https:'
}
