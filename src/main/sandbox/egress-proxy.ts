// The egress proxy behind `network: allowlist`: an HTTP proxy on loopback (and, for a sandbox
// with its own network namespace, on a unix socket) that passes only the hosts of
// `sandbox.allowed_hosts`. It decides on the request-target alone, the CONNECT authority or the
// authority of an absolute URI, never on a Host header, and it rewrites the Host header it
// forwards, so a shared front end (a CDN) cannot be asked for another site by a forged header.
// Node's own HTTP parser reads the requests: every request of a kept-alive or pipelined
// connection is judged on its own, and anything it cannot read is answered 400 and closed.
// DNS is trusted: a listed name is connected to wherever it resolves (rebinding is out of scope).
import { lstat, chmod, unlink } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { lookup as dnsLookup } from 'node:dns/promises'
import type { Resolver } from '../net/address-guard'
import {
  formatAuthority,
  isAllowed,
  parseAllowedHost,
  parseTarget,
  refusalText,
  type AllowedHost,
  type EgressKind,
  type EgressTarget
} from './egress-hosts'
import {
  addressesOf,
  forwardHttp,
  unreachableText,
  type EgressLogEntry,
  type Flow
} from './egress-forward'

export type { EgressLogEntry } from './egress-forward'

export interface EgressProxyOptions {
  /** Entries as in `sandbox.allowed_hosts`: `name`, `*.name` (subdomains only), `[:port]`. */
  allowedHosts: readonly string[]
  /** Also listen on this unix socket (created 0600; a stale socket there is replaced). */
  socketPath?: string
  /** How names become addresses; the system resolver by default. Tests map names to loopback. */
  resolve?: Resolver
  log?: (entry: EgressLogEntry) => void
  /** How long a client may take to send a request's headers (slowloris bound). Default 10 s. */
  headerTimeoutMs?: number
  /** How long connecting to an upstream may take. Default 15 s. */
  connectTimeoutMs?: number
  /** The most bytes a request line plus headers may take. Default 16 KiB. */
  maxHeaderBytes?: number
}

/** A running egress proxy. */
export interface EgressProxy {
  /** The loopback TCP port. */
  port: number
  /** `http://127.0.0.1:<port>`, for HTTP_PROXY and HTTPS_PROXY. */
  url: string
  socketPath: string | null
  /** Replaces the list; open tunnels and requests to hosts no longer listed are cut. */
  setAllowedHosts(hosts: readonly string[]): void
  /** Stops listening, cuts every connection, removes the unix socket. */
  close(): Promise<void>
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** One line of text as a whole HTTP response that closes the connection. */
export function closingResponse(status: number, reason: string, body: string): string {
  const bytes = Buffer.byteLength(body + '\n')
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${bytes}\r\nConnection: close\r\n\r\n${body}\n`
  )
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout']
}

/** Connects to the first address that answers; rejects with the last failure. */
function connectFirst(addresses: string[], port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const attempt = (index: number, lastError: Error | null): void => {
      const address = addresses[index]
      if (address === undefined) {
        reject(lastError ?? new Error('no addresses'))
        return
      }
      const socket = net.connect({ host: address, port, timeout: timeoutMs })
      const fail = (error: Error): void => {
        socket.destroy()
        attempt(index + 1, error)
      }
      socket.once('error', fail)
      socket.once('timeout', () =>
        fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))
      )
      socket.once('connect', () => {
        socket.removeListener('error', fail)
        socket.setTimeout(0)
        resolve(socket)
      })
    }
    attempt(0, null)
  })
}

/** Starts the proxy on 127.0.0.1 (a free port) and, when asked, on a unix socket. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  let entries: AllowedHost[] = options.allowedHosts.map(parseAllowedHost)
  const resolve = options.resolve ?? systemResolver
  // The log is the caller's: whatever it throws must not end the process the proxy runs in.
  const log = (entry: EgressLogEntry): void => {
    try {
      options.log?.(entry)
    } catch {
      // nothing to do: the decision stands whether or not it was written down
    }
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000
  const flows = new Set<Flow>()
  /** Responses under way per connection (pipelined requests can overlap). */
  const busy = new WeakMap<Duplex, number>()
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16 })

  const allowed = (target: EgressTarget, kind: EgressKind): boolean =>
    isAllowed(entries, target, kind)

  const onConnect = (req: http.IncomingMessage, client: Duplex, head: Buffer): void => {
    client.on('error', () => client.destroy())
    // A tunnel may idle as long as its two ends like; only the proxy's close or the list cuts it.
    if (client instanceof net.Socket) client.setTimeout(0)
    const authority = req.url ?? ''
    const target = parseTarget(authority, null)
    if (typeof target === 'string') {
      log({
        kind: 'malformed',
        target: authority.slice(0, 300),
        outcome: 'malformed',
        detail: target
      })
      client.end(closingResponse(400, 'Bad Request', `Mecatl's sandbox proxy: ${target}.`))
      return
    }
    const shown = formatAuthority(target, null)
    if (!allowed(target, 'connect')) {
      const text = refusalText(target, 'connect')
      log({ kind: 'connect', target: shown, outcome: 'refused', detail: text })
      client.end(closingResponse(403, 'Forbidden', text))
      return
    }
    let upstream: Socket | null = null
    const flow: Flow = {
      target,
      kind: 'connect',
      cut: () => {
        upstream?.destroy()
        client.destroy()
      }
    }
    flows.add(flow)
    client.on('close', () => {
      flows.delete(flow)
      upstream?.destroy()
    })
    addressesOf(target, resolve)
      .then((addresses) => connectFirst(addresses, target.port, connectTimeoutMs))
      .then(
        (socket) => {
          upstream = socket
          if (client.destroyed || !flows.has(flow)) {
            socket.destroy()
            return
          }
          log({ kind: 'connect', target: shown, outcome: 'allowed' })
          socket.on('error', () => client.destroy())
          socket.on('close', () => client.destroy())
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          if (head.length > 0) socket.write(head)
          socket.pipe(client)
          client.pipe(socket)
        },
        (error: unknown) => {
          const text = unreachableText(shown, error)
          log({ kind: 'connect', target: shown, outcome: 'unreachable', detail: text })
          if (!client.destroyed) client.end(closingResponse(502, 'Bad Gateway', text))
        }
      )
  }

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    req.socket.setTimeout(0)
    const socket = req.socket
    busy.set(socket, (busy.get(socket) ?? 0) + 1)
    res.on('close', () => busy.set(socket, (busy.get(socket) ?? 1) - 1))
    forwardHttp(req, res, {
      agent,
      resolve,
      connectTimeoutMs,
      log,
      flows,
      allowed: (target) => allowed(target, 'http')
    })
  }

  const onClientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
    const code = error.code ?? 'HPE_UNKNOWN'
    log({ kind: 'malformed', target: code, outcome: 'malformed', detail: error.message })
    // A response already under way on this connection cannot be followed by an error answer.
    if (code === 'ECONNRESET' || !socket.writable || (busy.get(socket) ?? 0) > 0) {
      socket.destroy()
      return
    }
    const [status, reason] = CLIENT_ERRORS[code] ?? [400, 'Bad Request']
    socket.end(
      closingResponse(
        status,
        reason,
        `Mecatl's sandbox proxy could not read this request (${code}); send an HTTP/1.1 proxy request.`
      )
    )
  }

  const headersTimeout = options.headerTimeoutMs ?? 10_000
  const makeServer = (): http.Server => {
    const server = http.createServer({
      maxHeaderSize: options.maxHeaderBytes ?? 16 * 1024,
      headersTimeout,
      requestTimeout: Math.max(headersTimeout, 300_000),
      // Node checks the two timeouts on this interval; the default (30 s) would stretch the bound.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
      keepAliveTimeout: 5_000,
      // The request-target decides; a client need not repeat it in a Host header.
      requireHostHeader: false
    })
    // Node's header bound starts at a request's first byte: a connection that never sends one
    // is bounded here, until its first request (Node's own timeouts take over from then on).
    server.on('connection', (socket: Socket) => socket.setTimeout(headersTimeout))
    server.on('request', onRequest)
    server.on('connect', onConnect)
    server.on('clientError', onClientError)
    return server
  }

  const tcp = makeServer()
  await new Promise<void>((done, fail) => {
    tcp.once('error', fail)
    tcp.listen(0, '127.0.0.1', () => done())
  })
  const { port } = tcp.address() as AddressInfo

  let unixServer: http.Server | null = null
  const socketPath = options.socketPath ?? null
  if (socketPath !== null) {
    try {
      unixServer = await listenUnix(makeServer(), socketPath)
    } catch (error) {
      tcp.close()
      agent.destroy()
      throw error
    }
  }

  let closed: Promise<void> | null = null
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    socketPath,
    setAllowedHosts(hosts) {
      // An entry that does not parse leaves nothing allowed rather than the old, wider list.
      let next: AllowedHost[] = []
      try {
        next = hosts.map(parseAllowedHost)
      } finally {
        entries = next
        for (const flow of flows) if (!allowed(flow.target, flow.kind)) flow.cut()
      }
    },
    close() {
      closed ??= (async (): Promise<void> => {
        entries = []
        for (const flow of flows) flow.cut()
        agent.destroy()
        const servers = unixServer ? [tcp, unixServer] : [tcp]
        await Promise.all(servers.map((server) => closeServer(server)))
        if (socketPath !== null) await unlink(socketPath).catch(() => undefined)
      })()
      return closed
    }
  }
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done())
    server.closeAllConnections()
  })
}

/** True when something accepts connections on the unix socket at `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(path)
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
  })
}

/** Listens on `path`, replacing a dead socket there but never a live one or another file. */
async function listenUnix(server: http.Server, path: string): Promise<http.Server> {
  const existing = await lstat(path).catch(() => null)
  if (existing !== null) {
    const taken = !existing.isSocket()
      ? 'a file that is not a socket'
      : (await answers(path))
        ? 'a socket another process is listening on'
        : null
    if (taken !== null) {
      throw new Error(
        `The egress proxy's socket path ${path} is taken by ${taken}; remove it or pick another path.`
      )
    }
    await unlink(path)
  }
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(path, () => done())
  })
  await chmod(path, 0o600)
  return server
}
