import type { CallResponse, EventFrame, PreloadBridge } from '../../../shared/contract'
// The frames' schema alone, not the whole contract's: this loads early (see connect-early.ts).
import { serverFrameSchema } from '../../../shared/contract/frames'

export type ConnectionState = 'connecting' | 'open' | 'reconnecting'

export interface ConnectionStatus {
  state: ConnectionState
  /** Failed attempts since the socket was last open. */
  failures: number
  /** Whether this page has ever reached the server (a wrong token never does). */
  everConnected: boolean
}

interface PendingCall {
  frame: string
  sent: boolean
  resolve: (response: CallResponse) => void
}

const MAX_BACKOFF_MS = 5000

/** Delay before reconnect attempt `failures` (1-based): 250 ms doubling, capped at 5 s. */
export function backoffDelay(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.max(0, failures - 1))
}

/**
 * Browser mode's stand-in for the preload bridge: the same call/subscribe surface over the
 * router's WebSocket, reconnecting with backoff. Calls made while the socket is down wait for
 * it; calls already sent when it drops fail, because re-sending (say) `session.send` could
 * start a second turn.
 */
export class WsBridge implements PreloadBridge {
  private socket: WebSocket | null = null
  private nextId = 1
  private readonly pending = new Map<number, PendingCall>()
  private readonly listeners = new Set<(frame: EventFrame) => void>()
  private status: ConnectionStatus = { state: 'connecting', failures: 0, everConnected: false }
  private retryTimer: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly url: string,
    private readonly onStatus: (status: ConnectionStatus, reconnected: boolean) => void
  ) {}

  connect(): void {
    if (this.socket) return
    const socket = new WebSocket(this.url)
    this.socket = socket
    socket.addEventListener('open', () => this.handleOpen())
    socket.addEventListener('message', (message) => this.handleMessage(message.data))
    socket.addEventListener('close', () => this.handleClose(socket))
  }

  call(method: string, input: unknown): Promise<CallResponse> {
    const id = this.nextId++
    const frame = JSON.stringify({ kind: 'call', id, method, input })
    return new Promise((resolve) => {
      const pending: PendingCall = { frame, sent: false, resolve }
      this.pending.set(id, pending)
      if (this.socket?.readyState === WebSocket.OPEN) this.send(pending)
    })
  }

  subscribe(listener: (frame: EventFrame) => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private send(pending: PendingCall): void {
    this.socket?.send(pending.frame)
    pending.sent = true
  }

  private setStatus(next: ConnectionStatus, reconnected = false): void {
    this.status = next
    this.onStatus(next, reconnected)
  }

  private handleOpen(): void {
    const reconnected = this.status.everConnected
    // The router queues events until it hears this; our listener set is live from the start.
    this.socket?.send(JSON.stringify({ kind: 'ready' }))
    for (const pending of this.pending.values()) if (!pending.sent) this.send(pending)
    this.setStatus({ state: 'open', failures: 0, everConnected: true }, reconnected)
  }

  private handleMessage(data: unknown): void {
    if (typeof data !== 'string') return
    let json: unknown
    try {
      json = JSON.parse(data)
    } catch {
      console.warn('Mecatl: ignoring a frame that is not JSON')
      return
    }
    const parsed = serverFrameSchema.safeParse(json)
    if (!parsed.success) {
      console.warn('Mecatl: ignoring a frame that does not match the protocol')
      return
    }
    const frame = parsed.data
    if (frame.kind === 'event') {
      for (const listener of this.listeners)
        listener({ event: frame.event, payload: frame.payload })
      return
    }
    const pending = this.pending.get(frame.id)
    if (!pending) return
    this.pending.delete(frame.id)
    pending.resolve(
      frame.kind === 'result'
        ? { ok: true, result: frame.result }
        : { ok: false, error: frame.error }
    )
  }

  private handleClose(socket: WebSocket): void {
    if (this.socket !== socket) return
    this.socket = null
    for (const [id, pending] of this.pending) {
      if (!pending.sent) continue
      this.pending.delete(id)
      pending.resolve({
        ok: false,
        error: {
          code: 'internal',
          message: 'The connection to Mecatl dropped before it answered. Try again once it is back.'
        }
      })
    }
    const failures = this.status.failures + 1
    this.setStatus({ ...this.status, state: 'reconnecting', failures })
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      this.connect()
    }, backoffDelay(failures))
  }
}
