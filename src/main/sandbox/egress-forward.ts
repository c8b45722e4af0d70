// Plain-http forwarding for the egress proxy: one absolute-form request in, one origin-form
// request out to the host its request-target names. The body is re-framed by Node on both legs
// (never copied byte for byte), so a request that frames its body two ways cannot smuggle a
// second request past the check; hop-by-hop headers, Proxy-Authorization among them, stop here.
import http from 'node:http'
import type { Resolver } from '../net/address-guard'
import {
  DEFAULT_PORTS,
  formatAuthority,
  parseTarget,
  refusalText,
  type EgressKind,
  type EgressTarget
} from './egress-hosts'

/** One decision of the proxy, for the log. */
export interface EgressLogEntry {
  /** `malformed`: a request the parser could not read, or one whose target is no host. */
  kind: EgressKind | 'malformed'
  /** `host:port` as requested, or the parser's error code for a malformed request. */
  target: string
  outcome: 'allowed' | 'refused' | 'malformed' | 'unreachable'
  /** Why, in words, for everything but `allowed`. */
  detail?: string
}

/** The addresses to try for a target: an IP literal as it is, a name through the resolver. */
export async function addressesOf(target: EgressTarget, resolve: Resolver): Promise<string[]> {
  if (target.kind === 'ip') return [target.host]
  const answers = await resolve(target.host)
  if (answers.length === 0) throw Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' })
  return answers.map((a) => a.address)
}

/** Why an upstream could not be reached, for a 502 body and the log. */
export function unreachableText(authority: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? String(error)
  const what =
    code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'could not resolve' : 'could not reach'
  return `Mecatl's sandbox proxy ${what} ${authority} (${code}); the host is allowed, so check the address or the network.`
}

/** A tunnel or a forwarded request in progress, so a narrowed list can cut it. */
export interface Flow {
  target: EgressTarget
  kind: EgressKind
  cut(): void
}

/** What forwarding needs from the proxy that owns it. */
export interface ForwardContext {
  agent: http.Agent
  resolve: Resolver
  connectTimeoutMs: number
  log: (entry: EgressLogEntry) => void
  flows: Set<Flow>
  allowed: (target: EgressTarget) => boolean
}

// RFC 9110 section 7.6.1, plus Proxy-Connection (old clients) and Expect, which this proxy has
// already answered with its own 100 Continue. Host is replaced by the request-target's authority.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host'
])

const ABSOLUTE_HTTP = /^http:\/\/([^/?#]*)([/?][^#]*)?$/i

/** Header pairs of `raw` without the hop-by-hop ones, those named by Connection included. */
export function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'connection') continue
    for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase())
  }
  const out: string[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? ''
    const lower = name.toLowerCase()
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue
    out.push(name, raw[i + 1] ?? '')
  }
  return out
}

function answer(res: http.ServerResponse, status: number, body: string): void {
  if (res.destroyed) return
  if (res.headersSent) {
    res.destroy()
    return
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' })
  res.end(`${body}\n`)
}

/** Why a request-target is not one this proxy forwards, or its authority and path. */
function readTarget(url: string): { authority: string; path: string } | string {
  const match = ABSOLUTE_HTTP.exec(url)
  if (match) return { authority: match[1] ?? '', path: match[2] ?? '/' }
  if (url.startsWith('/') || url === '*') {
    return 'it takes absolute-form requests (GET http://host/path) and never routes by a Host header'
  }
  if (/^https:\/\//i.test(url)) return 'https goes through a CONNECT tunnel, not a plain request'
  return `"${url.slice(0, 200)}" is not an http:// URL`
}

/** Checks one plain-http proxy request and forwards it when its host is listed. */
export function forwardHttp(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ctx: ForwardContext
): void {
  const url = req.url ?? ''
  const read = readTarget(url)
  const target = typeof read === 'string' ? read : parseTarget(read.authority, DEFAULT_PORTS.http)
  if (typeof read === 'string' || typeof target === 'string') {
    const why = typeof read === 'string' ? read : String(target)
    ctx.log({ kind: 'malformed', target: url.slice(0, 300), outcome: 'malformed', detail: why })
    answer(res, 400, `Mecatl's sandbox proxy: ${why}.`)
    return
  }
  const shown = formatAuthority(target, null)
  if (!ctx.allowed(target)) {
    const text = refusalText(target, 'http')
    ctx.log({ kind: 'http', target: shown, outcome: 'refused', detail: text })
    answer(res, 403, text)
    return
  }
  const path =
    typeof read === 'string' ? '/' : read.path.startsWith('?') ? `/${read.path}` : read.path
  let upstream: http.ClientRequest | null = null
  const flow: Flow = {
    target,
    kind: 'http',
    cut: () => {
      upstream?.destroy()
      res.destroy()
    }
  }
  ctx.flows.add(flow)
  res.on('close', () => {
    ctx.flows.delete(flow)
    upstream?.destroy()
  })
  const unreachable = (error: unknown): void => {
    const text = unreachableText(shown, error)
    ctx.log({ kind: 'http', target: shown, outcome: 'unreachable', detail: text })
    answer(res, 502, text)
  }
  addressesOf(target, ctx.resolve).then((addresses) => {
    if (res.destroyed || !ctx.flows.has(flow)) return
    const headers = [
      ...endToEnd(req.rawHeaders),
      'Host',
      formatAuthority(target, DEFAULT_PORTS.http)
    ]
    try {
      upstream = http.request({
        host: addresses[0],
        port: target.port,
        method: req.method,
        path,
        headers,
        setHost: false,
        agent: ctx.agent
      })
    } catch (error) {
      // Node refuses a path or header it would have to send unescaped.
      const why = (error as Error).message
      ctx.log({ kind: 'malformed', target: shown, outcome: 'malformed', detail: why })
      answer(res, 400, `Mecatl's sandbox proxy cannot forward this request: ${why}.`)
      return
    }
    ctx.log({ kind: 'http', target: shown, outcome: 'allowed' })
    const sent = upstream
    sent.on('socket', (socket) => {
      if (!socket.connecting) return
      const timer = setTimeout(
        () => sent.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
        ctx.connectTimeoutMs
      )
      socket.once('connect', () => clearTimeout(timer))
      socket.once('close', () => clearTimeout(timer))
    })
    sent.on('error', unreachable)
    sent.on('response', (upstreamRes) => {
      try {
        res.writeHead(
          upstreamRes.statusCode ?? 502,
          upstreamRes.statusMessage,
          endToEnd(upstreamRes.rawHeaders)
        )
      } catch (error) {
        // Node's parser took a header its writer refuses; that must not end the process.
        upstreamRes.destroy()
        unreachable(error)
        return
      }
      upstreamRes.on('error', () => res.destroy())
      upstreamRes.pipe(res)
    })
    req.pipe(sent)
  }, unreachable)
}
