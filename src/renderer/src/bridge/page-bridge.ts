import type { PreloadBridge } from '../../../shared/contract'
import { useConnection } from './connection-store'
import { resolveToken, rpcSocketUrl } from './token'
import { WsBridge } from './ws-bridge'

// Kept apart from client.ts, which validates with the whole contract's schemas: this module
// loads before them (see connect-early.ts), so the socket can open while they are built.

const reconnectListeners = new Set<() => void>()
let bridge: PreloadBridge | null = null

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

function createBridge(): PreloadBridge {
  if (window.mecatl) return window.mecatl
  const token = resolveToken(window.location.search, sessionStorageOrNull())
  if (!token) useConnection.setState({ missingToken: true })
  const ws = new WsBridge(
    rpcSocketUrl(window.location.host, token ?? ''),
    (status, reconnected) => {
      useConnection.setState({ status })
      if (reconnected) for (const listener of reconnectListeners) listener()
    }
  )
  useConnection.setState({ status: { state: 'connecting', failures: 0, everConnected: false } })
  if (token) ws.connect()
  return ws
}

/**
 * The one bridge of this page, made (and in browser mode connected) on first use: the preload's
 * in Electron, a WebSocket in browser mode.
 */
export function pageBridge(): PreloadBridge {
  bridge ??= createBridge()
  return bridge
}

/** Runs after the socket comes back, so stores can re-read what they may have missed. */
export function onBridgeReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener)
  return () => {
    reconnectListeners.delete(listener)
  }
}
