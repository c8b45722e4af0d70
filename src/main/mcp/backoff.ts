/** How a server that keeps dying is restarted: ever longer waits, then given up. */
export interface Backoff {
  initialMs: number
  maxMs: number
  /** Restarts in a row that may fail before the server is left failed. */
  maxAttempts: number
  /** Up this long, a server's next crash starts the backoff afresh. */
  stableMs: number
}

export const defaultBackoff: Backoff = {
  initialMs: 1000,
  maxMs: 30_000,
  maxAttempts: 5,
  stableMs: 60_000
}
