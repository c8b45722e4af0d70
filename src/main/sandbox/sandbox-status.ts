import type { SandboxNetwork } from '../../shared/sandbox'

/** Where Shell stands under the settings in force. */
export type SandboxStatus =
  | { state: 'confined'; backend: string; network: SandboxNetwork }
  /** The person chose no sandbox, or this platform has none: commands run as they would. */
  | { state: 'unconfined'; why: string }
  /** A sandbox is configured but cannot be honoured: commands are refused, never run bare. */
  | { state: 'refused'; why: string }
  | { state: 'checking' }

/** How the window and `mecatl tools` say where Shell stands. */
export function describeSandbox(status: SandboxStatus): string {
  switch (status.state) {
    case 'confined':
      return `confined (${status.backend}), network ${status.network}`
    case 'unconfined':
      return `not confined (${status.why})`
    case 'refused':
      return `refused: ${status.why}`
    case 'checking':
      return 'checking the sandbox'
  }
}
