import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  auth,
  discoverOAuthServerInfo,
  UnauthorizedError
} from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerSettings, McpServerView } from '../../../shared/mcp'
import { abortableFetch } from '../../net/abortable-fetch'
import { version } from '../../version'
import {
  httpStatusOf,
  remoteTransport,
  resolveReference,
  type RemoteTarget,
  type SecretSource
} from '../remote-transport'
import { listenForCallback, type CallbackListener } from './callback-listener'
import { McpOAuthProvider, type PreRegisteredClient } from './oauth-provider'
import type { OAuthVault } from './oauth-vault'
import { lockedRefreshFetch } from './refresh-lock'

/** How long a sign-in waits for the browser to come back before it gives up. */
export const SIGN_IN_WAIT_MS = 10 * 60_000
/** A token this close to running out is refreshed before it is used. */
const REFRESH_AHEAD_MS = 60_000

/** What the transport of a signed-in server is given. */
export interface TransportAuth {
  authProvider: McpOAuthProvider
  fetch: FetchLike
}

/**
 * The OAuth side of one remote server (the MCP authorization specification): whether it has a
 * sign-in, what its transport is given, refreshing ahead of expiry, and the sign-in itself. A
 * server with `auth: oauth` and nothing stored is not contacted until the person signs in; one
 * with no `auth` is, and is found to want sign-in from its 401 and its authorization metadata.
 * Nothing here waits for a person: a sign-in runs beside everything else.
 */
export class RemoteAuth {
  readonly provider: McpOAuthProvider
  /** Why the last sign-in or refresh failed; null: it did not. */
  error: string | null = null
  private signing: CallbackListener | null = null
  /** The server was found to want OAuth (explicitly, or from its answer). */
  private asked: boolean
  /** A login that worked was revoked or ran out beyond refreshing (see view). */
  private lost = false
  private readonly fetch: FetchLike

  private constructor(
    private readonly settings: McpServerSettings,
    vault: OAuthVault,
    client: PreRegisteredClient | undefined
  ) {
    const oauth = settings.auth?.type === 'oauth' ? settings.auth : undefined
    const key = new URL(settings.url ?? '').href
    this.provider = new McpOAuthProvider(vault, key, {
      client,
      scopes: oauth?.scopes,
      metadataUrl: oauth?.client_metadata_url
    })
    this.fetch = lockedRefreshFetch(vault, key, abortableFetch)
    this.asked = oauth !== undefined || this.provider.tokens() !== undefined
  }

  /** The OAuth side of a remote server that may use it (`auth: oauth`, or none set); else null. */
  static of(
    settings: McpServerSettings,
    vault: OAuthVault | undefined,
    secrets: SecretSource
  ): RemoteAuth | null {
    if (settings.url === undefined || !vault) return null
    const type = settings.auth?.type
    if (type === 'none' || type === 'bearer') return null
    const oauth = settings.auth?.type === 'oauth' ? settings.auth : undefined
    const client = oauth?.client_id
      ? {
          client_id: oauth.client_id,
          ...(oauth.client_secret
            ? { client_secret: resolveReference(oauth.client_secret, 'its client secret', secrets) }
            : {})
        }
      : undefined
    return new RemoteAuth(settings, vault, client)
  }

  get signedIn(): boolean {
    return this.provider.tokens() !== undefined && !this.provider.needsSignIn
  }

  view(): McpServerView['oauth'] {
    if (!this.asked) return null
    const state = this.signing ? 'signing-in' : this.signedIn ? 'signed-in' : 'signed-out'
    const expiresAt = this.signedIn ? this.provider.expiresAt() : null
    return { state, expiresAt, error: this.error, lost: this.lost && !this.signedIn }
  }

  /** Why the server is not to be contacted yet: OAuth set, and no sign-in stored. */
  missingSignIn(): string | null {
    return this.asked && !this.signedIn ? this.signInSentence() : null
  }

  /** The transport's sign-in: the provider and the refresh-locking fetch, once signed in. */
  transportAuth(): TransportAuth | undefined {
    return this.signedIn ? { authProvider: this.provider, fetch: this.fetch } : undefined
  }

  /**
   * Whether a failed start means the person has to sign in: the login was refused and could not
   * be refreshed, or the server answered 401 and publishes where to sign in. The sentence then.
   */
  async signInNeeded(error: unknown): Promise<string | null> {
    if (error instanceof UnauthorizedError || this.provider.needsSignIn) {
      this.asked = true
      this.lost = true
      this.provider.needsSignIn = true
      return this.signInSentence(true)
    }
    if (httpStatusOf(error) !== 401 || this.signedIn) return null
    const found = await discoverOAuthServerInfo(new URL(this.settings.url ?? ''), {
      fetchFn: this.fetch
    }).catch(() => null)
    if (!found?.authorizationServerMetadata) return null
    this.asked = true
    await this.provider.saveDiscoveryState(found)
    return this.signInSentence()
  }

  /** Refreshes the access token when it is about to run out (the transport only does on a 401). */
  async refreshIfDue(): Promise<void> {
    const tokens = this.provider.tokens()
    const expiresAt = this.provider.expiresAt()
    if (!tokens?.refresh_token || expiresAt === null || expiresAt - Date.now() > REFRESH_AHEAD_MS)
      return
    const url = this.settings.url ?? ''
    const result = await auth(this.provider, { serverUrl: url, fetchFn: this.fetch }).catch(
      (error: unknown) => {
        this.error = `refreshing the sign-in failed: ${error instanceof Error ? error.message : String(error)}`
        return 'FAILED' as const
      }
    )
    if (result === 'REDIRECT') this.provider.needsSignIn = true
  }

  /**
   * Starts a sign-in: listens on a loopback port for this sign-in only, asks the server where to
   * sign in (registering Mecatl first when no client id is set) and resolves with the page to
   * open; `done` settles once the browser came back and the code was exchanged (or it failed).
   * Resolves null when the stored sign-in still works.
   */
  async signIn(
    target: RemoteTarget,
    kind: 'http' | 'sse'
  ): Promise<{ url: URL; done: Promise<void> } | null> {
    this.cancelSignIn()
    const listener = await listenForCallback(this.settings.name)
    this.signing = listener
    this.error = null
    let opened: (url: URL) => void = () => undefined
    const page = new Promise<URL>((resolve) => (opened = resolve))
    this.provider.turn = { redirectUrl: listener.redirectUrl, open: (url) => opened(url) }
    this.provider.needsSignIn = false
    const transport = remoteTransport(
      { ...target, auth: { authProvider: this.provider, fetch: this.fetch } },
      kind
    )
    const client = new Client({ name: 'mecatl', version }, { capabilities: {} })
    const connected = client.connect(transport).then(
      () => 'signed-in' as const,
      (error: unknown) => {
        if (error instanceof UnauthorizedError) return 'redirected' as const
        throw error
      }
    )
    const first = await Promise.race([connected, page.then((url) => url)]).catch(
      (error: unknown) => {
        this.endSignIn(`the server could not be asked where to sign in: ${messageOf(error)}`)
        throw error
      }
    )
    if (first === 'signed-in') {
      await client.close()
      this.endSignIn(null)
      return null
    }
    const url = first === 'redirected' ? await page : first
    const done = this.finishSignIn(listener, transport, connected)
    return { url, done }
  }

  /** Stops a sign-in that is waiting for the browser (Sign out, a new sign-in, shutdown). */
  cancelSignIn(): void {
    if (!this.signing) return
    this.signing.finish({
      ok: false,
      message: 'This sign-in was cancelled in Mecatl; start it again there.'
    })
    this.endSignIn(null)
  }

  /** Forgets the sign-in: its tokens and registration. */
  async signOut(): Promise<void> {
    this.cancelSignIn()
    await this.provider.forget()
    this.lost = false
    this.asked = this.settings.auth?.type === 'oauth' || this.asked
    this.error = null
  }

  private async finishSignIn(
    listener: CallbackListener,
    transport: { finishAuth(code: string): Promise<void> },
    connected: Promise<unknown>
  ): Promise<void> {
    await connected.catch(() => undefined)
    const timer = setTimeout(() => this.cancelSignIn(), SIGN_IN_WAIT_MS)
    timer.unref()
    try {
      const back = await listener.result
      if (!back || this.signing !== listener) return
      if (back.error || !back.code) {
        throw new Error(
          back.error ? `the server refused: ${back.error}` : 'the server sent no code back'
        )
      }
      if (!this.provider.stateMatches(back.state)) {
        throw new Error(
          'the answer did not carry this sign-in’s state, so it was not used (start the sign-in again)'
        )
      }
      await transport.finishAuth(back.code)
      this.lost = false
      listener.finish({ ok: true, message: 'You can close this tab and go back to Mecatl.' })
      this.endSignIn(null)
    } catch (error) {
      const message = messageOf(error)
      listener.finish({ ok: false, message: `${message}. Go back to Mecatl and try again.` })
      this.endSignIn(`signing in failed: ${message}`)
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  private endSignIn(error: string | null): void {
    this.signing?.close()
    this.signing = null
    this.provider.turn = null
    this.error = error
  }

  private signInSentence(again = false): string {
    return `the server "${this.settings.name}" needs you to sign in${again ? ' again' : ''}: Settings → MCP servers → Sign in`
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
