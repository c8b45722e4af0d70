import { randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { openConnection } from '../rpc/connection'
import type { EventHub } from '../events/event-hub'
import type { Router } from '../rpc/router'
import {
  applyLimits,
  connectionBudget,
  defaultLimits,
  serverOptions,
  type ServerLimits
} from './connection-budget'
import { rateLimitedLog, type ServerLog } from './server-log'
import { describeTarget, serveStatic } from './static-files'

export interface BrowserServerOptions {
  router: Router
  hub: EventHub
  /** The built renderer (out/renderer). */
  rendererDir: string
  port?: number
  /** A fixed token (tests); otherwise a random one is made. */
  token?: string
  /** Where bad requests and frames are reported, rate-limited; console.warn unless told. */
  log?: ServerLog
  /** Caps and timeouts per connection (tests shorten them); `defaultLimits` unless told. */
  limits?: Partial<ServerLimits>
}

export interface BrowserServer {
  port: number
  token: string
  /** The address to open, with the token; `folder` opens that project directly. */
  url(folder?: string | null): string
  close(): Promise<void>
}

const HOST = '127.0.0.1'
/** The largest frame a socket may send; a bigger one closes it with 1009. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024

/** The close code `ws` sends for a bad frame, for the log line: any other is a protocol error. */
const closeCodes: Record<string, number> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : 'unknown'
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Ends a socket with a plain HTTP answer, once, whatever its state. A peer that does not read
 * even that is dropped after `graceMs`: Node's own idle timeout no longer watches an upgrade.
 */
function refuse(socket: Duplex, status: number, text: string, graceMs: number): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const reason = http.STATUS_CODES[status] ?? 'Error'
  if ('setTimeout' in socket) (socket as Socket).setTimeout(graceMs, () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `\r\n${text}`
  )
}

/** What Node itself answers to a request it could not parse, kept when we listen for it. */
function clientErrorStatus(code: string): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  return 400
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString()
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(data).toString()
}

/**
 * Browser mode: the built renderer over HTTP and the router over WebSocket, on loopback only.
 * Every socket must present the random token and come from this server's own origin, and every
 * request must name this server as its Host, so neither another site nor a rebinding DNS name
 * can drive the agent. Any page can still send us bytes, so nothing a request or a frame holds
 * may end the process: each failure is answered (400, or a WebSocket close code) and logged.
 * Nor may it make the server hold more than a bounded amount for it (connection-budget.ts): a
 * connection without the token gets one request, every file is streamed under backpressure, and
 * a peer that stops reading or sending is dropped after a timeout.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  let port = 0
  const allowedHosts = (): string[] => [`${HOST}:${port}`, `localhost:${port}`]
  const { log, flush } = rateLimitedLog(options.log ?? ((line) => console.warn(line)))
  const limits: ServerLimits = { ...defaultLimits, ...options.limits }
  const budget = connectionBudget(limits, log)

  const server = http.createServer(serverOptions(limits), (req, res) => {
    res.on('error', (error) => log(`response to ${describeTarget(req.url)}: ${errorText(error)}`))
    try {
      const okHost = allowedHosts().includes(req.headers.host ?? '')
      if (!budget.admit(req, res, okHost && showsToken(req.url, token))) return
      if (!okHost) {
        res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request')
        return
      }
      void serveStatic(options.rendererDir, req, res, log)
    } catch (error) {
      log(`request ${describeTarget(req.url)} failed: ${errorText(error)}`)
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end()
    }
  })
  applyLimits(server, limits)
  server.on('clientError', (error, socket) => {
    const code = errorCode(error)
    // A peer hanging up mid-request is not a malformed request: nothing to answer or log. Nor
    // can an answer be written into the middle of another one still on its way.
    if (code === 'ECONNRESET' || !socket.writable || budget.busy(socket)) {
      socket.destroy()
      return
    }
    const status = clientErrorStatus(code)
    if (status === 408) {
      log('a request did not arrive within its timeout: answered 408')
      refuse(
        socket,
        408,
        'Request timeout: the request took too long to arrive',
        limits.idleTimeoutMs
      )
      return
    }
    log(`malformed request (${code}): answered ${status}`)
    refuse(socket, status, 'Bad request: the request could not be parsed', limits.idleTimeoutMs)
  })

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  sockets.on('error', (error) => log(`socket server: ${errorText(error)}`))
  sockets.on('wsClientError', (error, socket) => {
    log(`refused an upgrade: ${errorText(error)}`)
    refuse(socket, 400, `Bad request: ${errorText(error)}`, limits.idleTimeoutMs)
  })
  let nextConnection = 1

  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    // Node hands the socket over bare: without this, a peer that resets it mid-answer would
    // raise an 'error' nobody hears, and that ends the process.
    socket.on('error', () => socket.destroy())
    // An upgrade pipelined behind requests would take the socket from under their answers.
    if (!budget.mayUpgrade(socket)) {
      socket.destroy()
      return
    }
    try {
      const url = new URL(req.url ?? '/', `http://${HOST}`)
      const origin = req.headers.origin ?? ''
      const okOrigin = allowedHosts().some((host) => origin === `http://${host}`)
      const okHost = allowedHosts().includes(req.headers.host ?? '')
      if (
        url.pathname !== '/rpc' ||
        !okOrigin ||
        !okHost ||
        !sameToken(url.searchParams.get('token'), token)
      ) {
        refuse(socket, 403, 'Forbidden', limits.idleTimeoutMs)
        return
      }
      sockets.handleUpgrade(req, socket, head, (ws) => attach(ws, `ws:${nextConnection++}`))
    } catch (error) {
      log(`upgrade ${describeTarget(req.url)} failed: ${errorText(error)}`)
      refuse(
        socket,
        400,
        'Bad request: the upgrade request could not be read',
        limits.idleTimeoutMs
      )
    }
  })

  const attach = (ws: WebSocket, caller: string): void => {
    const connection = openConnection(
      options.router,
      options.hub,
      caller,
      (frame) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame))
      },
      log
    )
    // `ws` has already closed the socket with the frame's code when this fires; with no
    // listener the same error would be thrown, and the process would go with it.
    ws.on('error', (error) => {
      const code = errorCode(error)
      const closedWith = closeCodes[code] ?? 1002
      log(`${caller} sent a bad frame (${errorText(error)}); closed it with ${closedWith}`)
    })
    ws.on('message', (data) => {
      let frame: unknown
      try {
        frame = JSON.parse(frameText(data))
      } catch {
        log(`${caller} sent a frame that is not JSON; ignored it`)
        return
      }
      try {
        if (!connection.receive(frame)) log(`${caller} sent a frame that is not ours; ignored it`)
      } catch (error) {
        log(`${caller}: a frame could not be handled: ${errorText(error)}`)
      }
    })
    ws.on('close', () => connection.close())
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, HOST, () => resolve())
  })
  // From here on an error of the listening socket (too many open files, say) is reported and
  // the server goes on with the connections it has, rather than taking the process down.
  server.on('error', (error) => log(`server: ${errorText(error)}`))
  port = (server.address() as AddressInfo).port

  return {
    port,
    token,
    url(folder) {
      const query = new URLSearchParams({ token })
      if (folder) query.set('folder', folder)
      return `http://${HOST}:${port}/?${query.toString()}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate()
        sockets.close()
        server.close(() => resolve())
        server.closeAllConnections()
        flush()
      })
  }
}

/** Whether a request target carries the token (the page's own address does). */
function showsToken(target: string | undefined, token: string): boolean {
  try {
    return sameToken(new URL(target ?? '/', `http://${HOST}`).searchParams.get('token'), token)
  } catch {
    return false
  }
}

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
