import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the authorization server sent the browser back with. */
export interface CallbackResult {
  code: string | null
  state: string | null
  /** The server's `error` (such as access_denied) and its description, when it refused. */
  error: string | null
}

/** A loopback listener that lives for one sign-in (see listenForCallback). */
export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`: the redirect URI of this sign-in. */
  redirectUrl: string
  /** Resolves with the first request to the callback path; null when closed before one came. */
  result: Promise<CallbackResult | null>
  /** Answers the browser's page (once the code was used, or failed) and stops listening. */
  finish(outcome: { ok: boolean; message: string }): void
  close(): void
}

/**
 * Listens on 127.0.0.1, on a port of its own, only for one sign-in: the authorization server
 * sends the browser back to it with the code (RFC 8252's loopback redirect). Anything but the
 * callback path is 404; the page the browser is left on says whether the sign-in worked, and
 * the listener closes after the first callback.
 */
export async function listenForCallback(server: string): Promise<CallbackListener> {
  let deliver: (result: CallbackResult | null) => void = () => undefined
  const result = new Promise<CallbackResult | null>((resolve) => (deliver = resolve))
  let waiting: http.ServerResponse | null = null
  const listener = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method !== 'GET' || url.pathname !== '/callback' || waiting) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    waiting = res
    const description = url.searchParams.get('error_description')
    const error = url.searchParams.get('error')
    deliver({
      code: url.searchParams.get('code'),
      state: url.searchParams.get('state'),
      error: error ? `${error}${description ? `: ${description}` : ''}` : null
    })
  })
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject)
    listener.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (listener.address() as AddressInfo).port
  const close = (): void => {
    deliver(null)
    listener.close()
    listener.closeAllConnections()
  }
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    result,
    finish: ({ ok, message }) => {
      const title = ok ? `Signed in to ${server}` : `Sign-in to ${server} failed`
      waiting
        ?.writeHead(ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          connection: 'close'
        })
        .end(page(title, message))
      waiting = null
      close()
    },
    close
  }
}

function page(title: string, message: string): string {
  const escape = (text: string): string =>
    text.replace(
      /[&<>"]/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c
    )
  return `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title>
<body style="font: 16px system-ui, sans-serif; margin: 4rem auto; max-width: 32rem">
<h1 style="font-size: 1.4rem">${escape(title)}</h1><p>${escape(message)}</p></body>`
}
