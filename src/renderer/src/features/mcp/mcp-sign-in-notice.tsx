import { useState, type JSX } from 'react'
import { signIn, useMcp } from './mcp-store'

/**
 * Says in the window that a remote server's login was revoked or ran out beyond refreshing: its
 * tools are paused while the session goes on (the model was told in the call's result), and one
 * click signs in again. Dismissed per server until it loses its login once more.
 */
export function McpSignInNotice(): JSX.Element | null {
  // The list itself, not a new empty one each time: a selector must return a stable value.
  const servers = useMcp((s) => s.state.status?.servers)
  const busy = useMcp((s) => s.state.busy)
  const [dismissed, setDismissed] = useState<string[]>([])
  const lost = (servers ?? []).filter(
    (server) =>
      server.oauth?.lost && server.state === 'needs-sign-in' && !dismissed.includes(server.name)
  )
  if (lost.length === 0) return null
  return (
    <div className="mcp-sign-in-notice" role="status" data-testid="mcp-sign-in-notice">
      {lost.map((server) => (
        <div key={server.name} className="mcp-sign-in-notice__row">
          <p>
            <strong className="mono">{server.name}</strong> needs you to sign in again: its tools
            are paused, and the session goes on without them.
          </p>
          <div className="mcp-sign-in-notice__actions">
            <button
              type="button"
              className="button button--small button--primary"
              data-testid="mcp-notice-sign-in"
              disabled={busy.includes(server.name)}
              onClick={() => void signIn(server.name)}
            >
              Sign in
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => setDismissed([...dismissed, server.name])}
            >
              Not now
            </button>
          </div>
        </div>
      ))}
    </div>
  )
}
