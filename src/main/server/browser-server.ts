import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { WebSocketServer, type WebSocket } from 'ws'
import { openConnection } from '../rpc/connection'
import type { EventHub } from '../rpc/event-hub'
import type { Router } from '../rpc/router'

export interface BrowserServerOptions {
  router: Router
  hub: EventHub
  /** The built renderer (out/renderer). */
  rendererDir: string
  port?: number
  /** A fixed token (tests); otherwise a random one is made. */
  token?: string
}

export interface BrowserServer {
  port: number
  token: string
  /** The address to open, with the token; `folder` opens that project directly. */
  url(folder?: string | null): string
  close(): Promise<void>
}

const HOST = '127.0.0.1'
const MAX_FRAME_BYTES = 16 * 1024 * 1024
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

/**
 * Browser mode: the built renderer over HTTP and the router over WebSocket, on loopback only.
 * Every socket must present the random token and come from this server's own origin, and every
 * request must name this server as its Host, so neither another site nor a rebinding DNS name
 * can drive the agent.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  let port = 0
  const allowedHosts = (): string[] => [`${HOST}:${port}`, `localhost:${port}`]

  const server = http.createServer((req, res) => {
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request')
      return
    }
    void serveStatic(options.rendererDir, req, res)
  })
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  let nextConnection = 1

  server.on('upgrade', (req, socket, head) => {
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
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws, `ws:${nextConnection++}`))
  })

  const attach = (ws: WebSocket, caller: string): void => {
    const connection = openConnection(options.router, options.hub, caller, (frame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame))
    })
    ws.on('message', (data) => {
      try {
        connection.receive(JSON.parse(data.toString()))
      } catch {
        // Not JSON: not one of our frames, so there is nothing to answer.
      }
    })
    ws.on('close', () => connection.close())
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, HOST, () => resolve())
  })
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
      })
  }
}

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

async function serveStatic(
  root: string,
  req: http.IncomingMessage,
  res: http.ServerResponse
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end()
    return
  }
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
  const relative = pathname === '/' ? 'index.html' : pathname.slice(1)
  const file = path.resolve(root, relative)
  if (file !== root && !file.startsWith(root + path.sep)) {
    res.writeHead(404).end()
    return
  }
  try {
    const body = await readFile(file)
    res.writeHead(200, {
      'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': relative === 'index.html' ? 'no-store' : 'max-age=3600'
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
  }
}
