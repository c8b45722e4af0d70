import { open, type FileHandle } from 'node:fs/promises'
import type http from 'node:http'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'

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

/** Where a request points inside the renderer folder, or why it points nowhere. */
type Target = { ok: true; file: string; relative: string } | { ok: false; status: 400 | 404 }

/**
 * Turns a request target into a file under `root`. Anything that does not parse or decode is a
 * 400, anything that climbs out of `root` a 404; nothing here throws.
 */
export function resolveTarget(root: string, target: string): Target {
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(target, 'http://x').pathname)
  } catch {
    return { ok: false, status: 400 }
  }
  if (pathname.includes('\0')) return { ok: false, status: 400 }
  const relative = pathname === '/' ? 'index.html' : pathname.slice(1)
  const file = path.resolve(root, relative)
  if (file !== root && !file.startsWith(root + path.sep)) return { ok: false, status: 404 }
  return { ok: true, file, relative }
}

/**
 * How much of a file is read ahead of the socket. A file is streamed, and its next chunk read only
 * once the socket has taken the last (`write()` returning false waits for 'drain'), so a reader
 * that stops costs us this chunk and the socket's buffer, never the file.
 */
export const CHUNK_BYTES = 64 * 1024

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text)
}

/**
 * Serves one GET or HEAD from the built renderer. Never rejects: a request it cannot make sense
 * of is answered 400, and anything unexpected 500 after `report` has heard of it, so a handler
 * promise can be left to run without a crash waiting in it.
 */
export async function serveStatic(
  root: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  report: (line: string) => void
): Promise<void> {
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    const target = resolveTarget(root, req.url ?? '/')
    if (!target.ok) {
      if (target.status === 404) {
        plain(res, 404, 'Not found')
        return
      }
      report(`answered 400 to ${describeTarget(req.url)}: not a valid URL path`)
      plain(res, 400, 'Bad request: the path is not a valid URL path')
      return
    }
    let file: FileHandle
    try {
      file = await open(target.file, 'r')
    } catch {
      plain(res, 404, 'Not found')
      return
    }
    try {
      await sendFile(file, target, req, res)
    } finally {
      await file.close().catch(() => undefined)
    }
  } catch (error) {
    report(`request ${describeTarget(req.url)} failed: ${String(error)}`)
    try {
      if (res.headersSent) res.destroy()
      else plain(res, 500, 'Internal error: the request could not be served; see the server log')
    } catch {
      res.destroy()
    }
  }
}

async function sendFile(
  file: FileHandle,
  target: { file: string; relative: string },
  req: http.IncomingMessage,
  res: http.ServerResponse
): Promise<void> {
  const stats = await file.stat()
  if (!stats.isFile()) {
    plain(res, 404, 'Not found')
    return
  }
  // The peer may have gone while the file opened; nothing is read for it then.
  const socket = req.socket
  if (res.destroyed || socket.destroyed) return
  res.writeHead(200, {
    'content-type': contentTypes[path.extname(target.file)] ?? 'application/octet-stream',
    'content-length': stats.size,
    'x-content-type-options': 'nosniff',
    'cache-control': target.relative === 'index.html' ? 'no-store' : 'max-age=3600'
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const chunks = file.createReadStream({ highWaterMark: CHUNK_BYTES, autoClose: false })
  // A response queued behind another (pipelined) hears nothing when its socket closes, and would
  // wait for a drain forever, holding the file open: the socket's close ends it too.
  const stop = (): void => {
    chunks.destroy()
  }
  socket.once('close', stop)
  try {
    await pipeline(chunks, res)
  } catch (error) {
    // The peer leaving, or being closed for not reading, is no failure of ours to report.
    if (!socket.destroyed || !peerGone(error)) throw error
  } finally {
    socket.off('close', stop)
  }
}

function peerGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE' || code === 'ECONNRESET'
}

/** A request target short and printable enough for one log line. */
export function describeTarget(target: string | undefined): string {
  const text = JSON.stringify(target ?? '')
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
