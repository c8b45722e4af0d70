import type { JSX } from 'react'
import { useConnection } from './connection-store'

/** Shown across the top while the WebSocket is down; the app stays usable to read. */
export function ConnectionBanner(): JSX.Element | null {
  const status = useConnection((s) => s.status)
  if (status.state === 'open') return null
  if (status.state === 'connecting' && status.failures === 0) return null
  const stuck = !status.everConnected && status.failures >= 4
  return (
    <div className="connection-banner" role="status" data-testid="connection-banner">
      <span className="connection-banner__dot" aria-hidden="true" />
      {stuck
        ? 'Cannot reach Mecatl. Check that `mecatl serve` is still running and open the link it printed.'
        : 'Disconnected from Mecatl — reconnecting…'}
    </div>
  )
}
