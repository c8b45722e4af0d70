// Small node:http helpers of the remote MCP fixture: bodies, recording, plain answers.
import type http from 'node:http'
import type { RecordedRequest } from './remote-mcp-server'

const BODY_LIMIT = 4 * 1024 * 1024

/** Returned by readJson when it has already answered the request. */
export const INVALID = Symbol('invalid body')

/** Reads a JSON body; on failure answers 400/413 itself and returns INVALID. */
export async function readJson(
  req: http.IncomingMessage,
  res: http.ServerResponse
): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > BODY_LIMIT) {
      plain(res, 413, 'Payload Too Large: the fixture takes bodies up to 4 MB.')
      return INVALID
    }
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch {
    res.writeHead(400, { 'Content-Type': 'application/json' })
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    )
    return INVALID
  }
}

/** The request as the fixture records it. */
export function record(req: http.IncomingMessage): RecordedRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return { method: req.method ?? '', path: req.url ?? '', headers }
}

/** One header's value, repeated ones joined with ', '. */
export function headerOf(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

/** Answers with a plain-text status and message. */
export function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' })
  res.end(text)
}
