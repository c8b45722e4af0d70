import type { LookupFunction } from 'node:net'
import zlib from 'node:zlib'
import type { Agent } from 'undici'
import { vetHost, type GuardOptions, type ResolvedAddress } from './address-guard'
import { withDeadline } from './deadline'

export const MAX_URL_BYTES = 8 * 1024
export const MAX_BODY_BYTES = 5 * 1024 * 1024
export const MAX_REDIRECTS = 5
const TIMEOUT_MS = 30_000

/** A refused or failed fetch, in words the model can act on. */
export class FetchRefusedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FetchRefusedError'
  }
}

export interface GuardedGetOptions extends GuardOptions {
  signal: AbortSignal
  /** The Accept header: the one request header sent besides the encodings and our name. */
  accept: string
}

export interface FetchedBody {
  url: string
  finalUrl: string
  status: number
  contentType: string | null
  body: Buffer
  /** Why `body` is not the whole response (a cap), or null. */
  cut: string | null
}

/**
 * Parses and checks a URL the model gave: absolute http(s), no credentials, at most 8 KiB before
 * and after the WHATWG parser normalised it (the guard judges the normalised host).
 */
export function checkUrl(raw: string): URL {
  if (Buffer.byteLength(raw) > MAX_URL_BYTES) {
    throw new FetchRefusedError(`the URL is longer than ${MAX_URL_BYTES} bytes; use a shorter one`)
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new FetchRefusedError(`"${raw.slice(0, 200)}" is not an absolute URL; give http(s)://…`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusedError(`only http and https URLs can be fetched, not ${url.protocol}`)
  }
  if (Buffer.byteLength(url.href) > MAX_URL_BYTES) {
    throw new FetchRefusedError(`the URL is longer than ${MAX_URL_BYTES} bytes once normalised`)
  }
  return url
}

/**
 * GET with no cookies, proxy, credentials or custom headers. Every hop's host is vetted by the
 * address guard and the connection is pinned to an address that passed, so a DNS answer that
 * changes between the check and the connect cannot redirect it; redirects are followed by hand
 * (at most five), each one vetted again.
 */
export function guardedGet(raw: string, options: GuardedGetOptions): Promise<FetchedBody> {
  return withDeadline(TIMEOUT_MS, (signal) => getWithin(raw, options, signal), options.signal)
}

/** guardedGet under `signal`: the person's stop, or the deadline (see deadline.ts). */
async function getWithin(
  raw: string,
  options: GuardedGetOptions,
  signal: AbortSignal
): Promise<FetchedBody> {
  let url = checkUrl(raw)
  if (url.username || url.password) {
    throw new FetchRefusedError(
      'URLs with a user name or password are not fetched; remove the "user:password@" part'
    )
  }
  // Loaded on the first fetch: most commands never make one, and undici takes 75 ms to load.
  const { Agent, request } = await import('undici')
  for (let hop = 0; ; hop++) {
    const vetted = await vetHost(url, options)
    const agent = pinnedAgent(Agent, vetted.addresses[0] as ResolvedAddress)
    try {
      const response = await request(url.href, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: {
          accept: options.accept,
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'Mecatl-WebFetch/1.0'
        }
      })
      const location = headerOf(response.headers, 'location')
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        await response.body.dump()
        if (hop >= MAX_REDIRECTS) {
          throw new FetchRefusedError(
            `${raw} redirected more than ${MAX_REDIRECTS} times; not followed further (last hop: ${url.href})`
          )
        }
        const next = checkUrl(new URL(location, url).href)
        if (next.username || next.password) {
          throw new FetchRefusedError(`a redirect to ${next.origin} carried credentials; refused`)
        }
        url = next
        continue
      }
      const encoding = headerOf(response.headers, 'content-encoding')
      const read = await readCapped(response.body, encoding)
      return {
        url: raw,
        finalUrl: url.href,
        status: response.statusCode,
        contentType: headerOf(response.headers, 'content-type'),
        ...read
      }
    } catch (error) {
      if (error instanceof FetchRefusedError) throw error
      if (signal.aborted && !options.signal.aborted) {
        throw new FetchRefusedError(`${url.href} did not answer within ${TIMEOUT_MS / 1000} s`)
      }
      throw error
    } finally {
      await agent.close().catch(() => undefined)
    }
  }
}

function pinnedAgent(Pinned: typeof Agent, address: ResolvedAddress): Agent {
  // The socket connects to the vetted address whatever name it is given; TLS still checks the
  // certificate against the URL's host name.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: address.address, family: address.family }])
    else callback(null, address.address, address.family)
  }
  return new Pinned({
    connect: { lookup },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS
  })
}

function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string
): string | null {
  const value = headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? null
}

type BodyStream = AsyncIterable<Buffer> & { destroy(error?: Error): unknown }

/**
 * Reads at most 5 MiB off the wire and keeps at most 5 MiB once decompressed, so neither a huge
 * page nor a decompression bomb can fill memory: past either cap the rest is dropped.
 */
async function readCapped(
  body: BodyStream,
  encoding: string | null
): Promise<{ body: Buffer; cut: string | null }> {
  const chunks: Buffer[] = []
  let size = 0
  let cut: string | null = null
  for await (const chunk of body) {
    if (size + chunk.length > MAX_BODY_BYTES) {
      chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size))
      cut = `the download was cut at ${MAX_BODY_BYTES} bytes (5 MiB)`
      body.destroy()
      break
    }
    chunks.push(chunk)
    size += chunk.length
  }
  const raw = Buffer.concat(chunks)
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return { body: raw, cut }
  const decoded = await decompressCapped(raw, coding)
  return { body: decoded.body, cut: decoded.cut ?? cut }
}

function decompressorFor(coding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress {
  // Sync flush: a body cut at the download cap still yields what it holds.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH }
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(flush)
  if (coding === 'deflate') return zlib.createInflate(flush)
  if (coding === 'br') {
    return zlib.createBrotliDecompress({
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH
    })
  }
  throw new FetchRefusedError(`the server sent an unsupported content encoding "${coding}"`)
}

async function decompressCapped(
  raw: Buffer,
  coding: string
): Promise<{ body: Buffer; cut: string | null }> {
  const stream = decompressorFor(coding)
  const chunks: Buffer[] = []
  let size = 0
  return new Promise((resolve, reject) => {
    const finish = (cut: string | null): void => resolve({ body: Buffer.concat(chunks), cut })
    stream.on('data', (chunk: Buffer) => {
      if (size + chunk.length > MAX_BODY_BYTES) {
        chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size))
        size = MAX_BODY_BYTES
        stream.removeAllListeners('data')
        stream.destroy()
        finish(`the decompressed page was cut at ${MAX_BODY_BYTES} bytes (5 MiB)`)
        return
      }
      chunks.push(chunk)
      size += chunk.length
    })
    stream.on('end', () => finish(null))
    stream.on('error', (error) => {
      if (size > 0) finish(null)
      else
        reject(
          new FetchRefusedError(
            `the ${coding}-encoded body could not be decoded (${error.message})`
          )
        )
    })
    stream.end(raw)
  })
}
