import { create } from 'zustand'
import type { ConnectionStatus } from './ws-bridge'

interface ConnectionStore {
  status: ConnectionStatus
  /** Browser mode opened without a token: nothing to connect with. */
  missingToken: boolean
}

/** Connection health for the banner; Electron's bridge never leaves 'open'. */
export const useConnection = create<ConnectionStore>(() => ({
  status: { state: 'open', failures: 0, everConnected: true },
  missingToken: false
}))
