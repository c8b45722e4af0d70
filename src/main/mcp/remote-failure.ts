import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { describeUnreachable } from '../net/net-failure'
import type { RemoteTarget } from './remote-transport'
import { httpStatusOf } from './remote-transport'

/**
 * Why a remote server did not start, in a sentence that says what to check: the address that
 * does not answer, the status it answered with, or the handshake it did not finish in time.
 */
export function remoteStartFailure(
  error: unknown,
  target: RemoteTarget,
  kind: 'http' | 'sse',
  timeoutMs: number
): string {
  const address = target.url.href
  const unreachable = describeUnreachable(error, address, 'url')
  if (unreachable) return unreachable
  const status = httpStatusOf(error)
  const authorized = 'Authorization' in target.headers
  if (status === 401) {
    return authorized
      ? `the server refused the credentials sent (HTTP 401); check the token its bearer auth or headers name`
      : `the server asks for authorization (HTTP 401); give it credentials: auth: { type: bearer, token: "\${env:NAME}" }, or a header by reference`
  }
  if (status === 403) {
    return `the server refused access (HTTP 403); check that the credentials sent may use it`
  }
  if (status === 404 || status === 405) {
    const other = kind === 'http' ? 'set transport: sse for an old server' : 'set transport: http'
    return `nothing serves MCP over ${kind === 'http' ? 'streamable HTTP' : 'SSE'} at ${address} (HTTP ${status}); check the path (often /mcp, or /sse for an old server), or ${other}`
  }
  if (status !== undefined) {
    return `the server answered HTTP ${status} to the MCP handshake at ${address}${detail(error)}`
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `the server at ${address} did not answer the MCP handshake within ${Math.round(timeoutMs / 1000)} s; check that it is an MCP server`
  }
  return `the server at ${address} could not be reached: ${error instanceof Error ? error.message : String(error)}`
}

function detail(error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  return message ? ` (${message})` : ''
}
