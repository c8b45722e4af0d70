import { readFile } from 'node:fs/promises'
import type http from 'node:http'
import path from 'node:path'

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
    let body: Buffer
    try {
      body = await readFile(target.file)
    } catch {
      plain(res, 404, 'Not found')
      return
    }
    res.writeHead(200, {
      'content-type': contentTypes[path.extname(target.file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': target.relative === 'index.html' ? 'no-store' : 'max-age=3600'
    })
    res.end(req.method === 'HEAD' ? undefined : body)
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

/** A request target short and printable enough for one log line. */
export function describeTarget(target: string | undefined): string {
  const text = JSON.stringify(target ?? '')
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
