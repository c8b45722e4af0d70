import type { McpServerSettings } from '../../../shared/mcp'
import type { LogRing } from '../log-ring'
import type { TransportKind } from '../mcp-connection'
import { remoteTarget, type SecretSource } from '../remote-transport'
import type { RemoteAuth } from './remote-auth'

/** What a server's sign-in needs of its supervisor. */
export interface SignInHost {
  settings: McpServerSettings
  secrets: SecretSource
  /** The transport the server was last reached over, if it was. */
  connected: TransportKind | null
  log: LogRing
  /** The server's view changed (signing in, then signed in or failed). */
  onChange: () => void
  /** Starts the server again, with the new sign-in. */
  restart: () => Promise<void>
}

/**
 * Starts the person's sign-in to a remote server: resolves with the page to open, or null when
 * the stored sign-in still works (the server is restarted with it). Once the browser comes back
 * signed in, the server restarts; a sign-in that fails says why in the log and the row.
 */
export async function startSignIn(auth: RemoteAuth, host: SignInHost): Promise<string | null> {
  const s = host.settings
  const target = remoteTarget(s, host.secrets)
  const kind = host.connected === 'sse' || s.transport === 'sse' ? 'sse' : 'http'
  const started = auth.signIn(target, kind)
  host.onChange()
  const begun = await started.finally(() => host.onChange())
  if (!begun) {
    await host.restart()
    return null
  }
  host.log.event('signing in: waiting for the browser')
  void begun.done.then(
    () => {
      host.log.event('signed in')
      return host.restart()
    },
    (error: unknown) => {
      host.log.event(`signing in failed: ${error instanceof Error ? error.message : String(error)}`)
      host.onChange()
    }
  )
  return begun.url.href
}
