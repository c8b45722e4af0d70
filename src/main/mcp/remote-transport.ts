import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerSettings } from '../../shared/mcp'
import { secretReferences, SECRET_REFERENCE } from '../../shared/mcp-remote'
import { abortableFetch } from '../net/abortable-fetch'

/** Where a remote server's secrets are read: the app's environment and the stored keys. */
export interface SecretSource {
  env: NodeJS.ProcessEnv
  readSecret?: (name: string) => string | undefined
}

/** A remote server as the connection reaches it: its address and the headers, resolved. */
export interface RemoteTarget {
  url: URL
  /** Unset: streamable HTTP, then the legacy SSE transport if the server is an old one. */
  transport?: 'http' | 'sse'
  headers: Record<string, string>
  /** An OAuth sign-in: the SDK's provider, and the fetch that keeps refreshes one at a time. */
  auth?: { authProvider: OAuthClientProvider; fetch: FetchLike }
}

/**
 * The headers of a remote server with every `${env:…}`/`${secret:…}` replaced by its value, the
 * bearer token as `Authorization`. Throws a sentence naming what is missing: a header sent with
 * a hole in it would fail later with a 401 that says nothing about why.
 */
export function remoteTarget(settings: McpServerSettings, secrets: SecretSource): RemoteTarget {
  if (settings.url === undefined) throw new Error(`the MCP server "${settings.name}" has no url`)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(settings.headers ?? {})) {
    headers[name] = resolveReference(value, `its header ${name}`, secrets)
  }
  if (settings.auth?.type === 'bearer') {
    headers.Authorization = `Bearer ${resolveReference(settings.auth.token, 'its bearer token', secrets)}`
  }
  return { url: new URL(settings.url), transport: settings.transport, headers }
}

/** `value` with its references replaced (see remoteTarget); throws naming what is missing. */
export function resolveReference(value: string, what: string, secrets: SecretSource): string {
  const missing = secretReferences(value).filter(
    ({ from, name }) => lookup(from, name, secrets) === undefined
  )
  if (missing.length > 0) {
    const named = missing.map(({ from, name }) =>
      from === 'env'
        ? `the environment variable ${name} is not set (set it where Mecatl starts)`
        : `no key named ${name} is stored (store it with \`mecatl keys set ${name}\` or in Settings)`
    )
    throw new Error(`${what} cannot be sent: ${named.join('; ')}`)
  }
  return value.replace(SECRET_REFERENCE, (_whole, from: 'env' | 'secret', name: string) => {
    return lookup(from, name, secrets) ?? ''
  })
}

function lookup(from: 'env' | 'secret', name: string, secrets: SecretSource): string | undefined {
  const value = from === 'env' ? secrets.env[name] : secrets.readSecret?.(name)
  return value === '' ? undefined : value
}

/** The SDK's transport of one kind for `target`; every request through abortableFetch. */
export function remoteTransport(
  target: RemoteTarget,
  kind: 'http' | 'sse'
): StreamableHTTPClientTransport | SSEClientTransport {
  const options = {
    requestInit: { headers: target.headers },
    fetch: target.auth?.fetch ?? abortableFetch,
    ...(target.auth ? { authProvider: target.auth.authProvider } : {})
  }
  return kind === 'http'
    ? new StreamableHTTPClientTransport(target.url, options)
    : new SSEClientTransport(target.url, options)
}

/**
 * Whether a failed streamable HTTP start means an old server, which speaks only the legacy SSE
 * transport: the specification's backwards compatibility section has a client fall back when
 * the POST of its initialize request fails with a 4xx status (an old server has no POST there).
 * An authorization failure (401, 403) is not one: the server is new, and wants sign-in.
 */
export function isOldServer(error: unknown): boolean {
  const code = error instanceof StreamableHTTPError ? error.code : undefined
  return code !== undefined && code >= 400 && code < 500 && code !== 401 && code !== 403
}

/** The HTTP status of a failed remote start, when there was one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code
  return undefined
}
