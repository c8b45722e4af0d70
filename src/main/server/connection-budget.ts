import type http from 'node:http'
import type { Duplex } from 'node:stream'

/** What one connection may cost browser mode, and for how long it may take it. */
export interface ServerLimits {
  /** Connections open at once, WebSockets included; more are closed as they arrive. */
  maxConnections: number
  /** Unfinished responses a connection that showed the token may have (pipelined requests). */
  maxPipelined: number
  /** Requests one kept-alive connection may make; after that Node answers 503 and closes it. */
  maxRequestsPerSocket: number
  /** The request's headers must have arrived by then. */
  headersTimeoutMs: number
  /** The whole request, body included, must have arrived by then. */
  requestTimeoutMs: number
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number
  /**
   * A connection that moves no byte either way for this long is closed: above all a peer that
   * stopped reading a response, whose output then waits for a drain that never comes.
   */
  idleTimeoutMs: number
  /** How often Node looks for requests past their headers or request timeout. */
  checkIntervalMs: number
}

/**
 * Each connection costs at most one file chunk in flight (static-files.ts streams with
 * backpressure) plus the socket's own buffer, so these caps put a ceiling of a few tens of MB on
 * what any number of hostile connections can make the server hold.
 */
export const defaultLimits: ServerLimits = {
  maxConnections: 128,
  maxPipelined: 4,
  maxRequestsPerSocket: 100,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 15_000,
  checkIntervalMs: 1_000
}

/** The options only `http.createServer` takes. */
export function serverOptions(limits: ServerLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs
  }
}

/** The rest, set on the server once it is made. */
export function applyLimits(server: http.Server, limits: ServerLimits): void {
  server.maxConnections = limits.maxConnections
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket
  // No 'timeout' listener: Node then destroys the idle socket itself.
  server.setTimeout(limits.idleTimeoutMs)
}

interface SocketState {
  requests: number
  /** Its first request carried the token. */
  trusted: boolean
  /** Responses begun and not yet finished or abandoned. */
  open: number
}

/** Who may ask what of a connection: see `connectionBudget`. */
export interface ConnectionBudget {
  /**
   * Whether to answer `req`. False means the connection has been closed and `res` must be left
   * alone. A connection whose first request did not carry the token is told `Connection: close`.
   */
  admit(req: http.IncomingMessage, res: http.ServerResponse, showsToken: boolean): boolean
  /** Whether a response is on its way on `socket`: an error there must close it, not answer. */
  busy(socket: Duplex): boolean
  /** Whether `socket` may still become a WebSocket (no request before it, unless trusted and idle). */
  mayUpgrade(socket: Duplex): boolean
}

/**
 * Node parses every request a client pipelines and hands each to us at once, before it has
 * written a byte of the first answer; a client that never reads could so have us prepare
 * thousands of answers together. So a connection that did not show the token on its first request
 * gets that one request and is closed after it (a second one closes it at once), and one that did
 * may have only `maxPipelined` answers unfinished. With responses streamed under backpressure,
 * what a connection can make us hold is bounded by that count, whatever it sends.
 */
export function connectionBudget(
  limits: ServerLimits,
  log: (line: string) => void
): ConnectionBudget {
  const states = new WeakMap<object, SocketState>()
  return {
    admit(req, res, showsToken) {
      const socket = req.socket
      if (socket.destroyed) return false
      let state = states.get(socket)
      if (!state) {
        state = { requests: 0, trusted: showsToken, open: 0 }
        states.set(socket, state)
      }
      state.requests++
      const over = state.trusted ? state.open >= limits.maxPipelined : state.requests > 1
      if (over) {
        log(
          state.trusted
            ? `closed a connection that pipelined more than ${limits.maxPipelined} requests`
            : 'closed a connection without the token that sent a second request'
        )
        socket.destroy()
        return false
      }
      const counted = state
      counted.open++
      res.once('close', () => counted.open--)
      if (!counted.trusted) res.setHeader('connection', 'close')
      return true
    },
    busy(socket) {
      return (states.get(socket)?.open ?? 0) > 0
    },
    mayUpgrade(socket) {
      const state = states.get(socket)
      return !state || (state.trusted && state.open === 0)
    }
  }
}
