// A model server on loopback that fails the first chat requests in the ways a provider does (a
// status with its headers, or half a reply and then a reset connection) and then answers the
// whole reply, in the OpenAI or Anthropic streaming format. Not shipped: only tests import it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { frames, TEXT } from './broken-model-server'

/**
 * What one request meets: an HTTP status (429, 529, 503…) with headers, a reset mid-reply, or
 * (Anthropic) an `overloaded_error` event mid-reply, as Anthropic sends when it sheds load.
 */
export type Failure = { status: number; headers?: Record<string, string> } | 'reset' | 'overloaded'

export interface FlakyModelServer {
  openaiBaseUrl: string
  anthropicBaseUrl: string
  /** The whole reply's text; a reset request delivers its first half or so. */
  readonly text: string
  /** When each chat request (not a model list) arrived, by this process's monotonic clock (ms). */
  readonly arrivals: readonly number[]
  close(): Promise<void>
}

/** Starts the server on 127.0.0.1; request n meets `failures[n]`, and once they run out, success. */
export async function startFlakyModelServer(
  failures: readonly Failure[]
): Promise<FlakyModelServer> {
  const arrivals: number[] = []
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      // Only chat requests meet the failures; a model list or a context-window probe gets none.
      if (req.method !== 'POST' || !/\/(chat\/completions|messages)$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}')
        return
      }
      const failure = failures[arrivals.length]
      arrivals.push(performance.now())
      answer(req, res, failure)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    openaiBaseUrl: `${url}/openai/v1`,
    anthropicBaseUrl: `${url}/anthropic`,
    text: TEXT,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function answer(req: IncomingMessage, res: ServerResponse, failure: Failure | undefined): void {
  const anthropic = (req.url ?? '').startsWith('/anthropic/')
  if (failure !== undefined && typeof failure !== 'string') {
    const type =
      failure.status === 429
        ? 'rate_limit_error'
        : failure.status === 529
          ? 'overloaded_error'
          : 'api_error'
    const body = anthropic
      ? { type: 'error', error: { type, message: `fake status ${failure.status}` } }
      : { error: { type, message: `fake status ${failure.status}`, code: null, param: null } }
    res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers })
    res.end(JSON.stringify(body))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const all = frames(anthropic)
  if (failure === undefined) {
    res.end(all.join(''))
    return
  }
  const half = all.slice(0, Math.ceil(all.length / 2)).join('')
  if (failure === 'overloaded') {
    const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
    res.end(`${half}event: error\ndata: ${JSON.stringify(error)}\n\n`)
    return
  }
  res.write(half, () => res.socket?.resetAndDestroy())
}
