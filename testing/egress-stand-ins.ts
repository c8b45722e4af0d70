// Loopback stand-ins for the egress proxy's tests: an upstream that records what reached it,
// a resolver that sends made-up names to 127.0.0.1, and a client that opens a CONNECT tunnel.
// Not shipped: only test files import it.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import type { Resolver } from '../src/main/net/address-guard'

/** What one request that reached the upstream looked like. */
export interface SeenRequest {
  method: string
  url: string
  /** Header names lower-cased; a repeated header's values joined with ", ". */
  headers: Record<string, string>
  body: string
}

/** A plain-http server on 127.0.0.1 that answers every request with what it saw, as JSON. */
export interface Upstream {
  port: number
  seen: SeenRequest[]
  close(): Promise<void>
}

export async function startUpstream(): Promise<Upstream> {
  const seen: SeenRequest[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers: Record<string, string> = {}
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const name = (req.rawHeaders[i] ?? '').toLowerCase()
        const value = req.rawHeaders[i + 1] ?? ''
        headers[name] = name in headers ? `${headers[name]}, ${value}` : value
      }
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString()
      }
      seen.push(request)
      // Headers a proxy must pass on, and hop-by-hop ones it must not.
      res.setHeader('Set-Cookie', ['a=1', 'b=2'])
      res.setHeader('X-Upstream', 'yes')
      const keep = /close/i.test(req.headers.connection ?? '') ? 'close' : 'keep-alive'
      res.setHeader('Connection', `${keep}, X-Upstream-Hop`)
      res.setHeader('X-Upstream-Hop', 'secret')
      res.setHeader('Proxy-Authenticate', 'Basic realm="upstream"')
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(request))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Resolves every name ending in `.test` to 127.0.0.1; anything else does not exist. */
export const loopbackResolver: Resolver = async (hostname) => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }]
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
}

/** How long a test waits on a socket before it gives up: a bound, not an assertion. */
const BOUND_MS = 5000

/** An answer to CONNECT: its status line and headers, and the open socket when it was 200. */
export interface TunnelAnswer {
  status: number | null
  /** The response head and anything after it (a refusal's body). */
  text: string
  socket: net.Socket | null
}

/** Sends `CONNECT <authority>` (plus `extraHeaders`) to the proxy on `connectTo`. */
export function openTunnel(
  connectTo: number | string,
  authority: string,
  extraHeaders = ''
): Promise<TunnelAnswer> {
  return new Promise((resolve) => {
    const socket =
      typeof connectTo === 'number'
        ? net.connect({ host: '127.0.0.1', port: connectTo })
        : net.connect(connectTo)
    let buffer = Buffer.alloc(0)
    let settled = false
    const timer = setTimeout(() => finish(false), BOUND_MS)
    const finish = (open: boolean): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.removeAllListeners('data')
      const text = buffer.toString('latin1')
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      const status = match ? Number(match[1]) : null
      if (!open) socket.destroy()
      resolve({ status, text, socket: open ? socket : null })
    }
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      const text = buffer.toString('latin1')
      if (text.startsWith('HTTP/1.1 200') && text.includes('\r\n\r\n')) finish(true)
    })
    socket.on('error', () => finish(false))
    socket.on('close', () => finish(false))
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${extraHeaders}\r\n`)
  })
}

/** Sends one raw request through an open tunnel and reads the whole answer (it must close). */
export function throughTunnel(socket: net.Socket, request: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), BOUND_MS)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString())
    })
    socket.write(request)
  })
}

/** Resolves once `socket` closes, or with false when the bound runs out first. */
export function closed(socket: net.Socket): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), BOUND_MS)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
