import { StringDecoder } from 'node:string_decoder'
import {
  DEFAULT_INHERITED_ENV_VARS,
  StdioClientTransport
} from '@modelcontextprotocol/sdk/client/stdio.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { LogRing } from './log-ring'
import type { LocalTarget } from './mcp-connection'

/** The SDK's stdio transport for a local server, its stderr going to the server's log. */
export function stdioTransport(target: LocalTarget, log: LogRing): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: exactSpawnEnvironment(target.env),
    cwd: target.cwd,
    // Never the terminal: a server's stderr is its log.
    stderr: 'pipe'
  })
  // A decoder, so a character split across two chunks is not garbled.
  const decoder = new StringDecoder('utf8')
  transport.stderr?.on('data', (chunk: Buffer) => log.stderr(decoder.write(chunk)))
  return transport
}

/**
 * The SDK's stdio transport spawns with `{...getDefaultEnvironment(), ...env}`, which would add
 * the app's LOGNAME, SHELL, TERM and USER (see sdk/dist/cjs/client/stdio.js). Node's spawn drops
 * variables whose value is undefined, so naming each of those defaults as undefined (unless the
 * allowlist set it) makes the child's environment exactly `env`.
 */
export function exactSpawnEnvironment(env: Record<string, string>): Record<string, string> {
  const blanked: Record<string, string | undefined> = {}
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    if (!(name in env)) blanked[name] = undefined
  }
  // The transport's type says string values; undefined is what removes a default (see above).
  return { ...blanked, ...env } as Record<string, string>
}

/** What a local server's failed start is told with. */
export interface StartFailure {
  error: unknown
  target: LocalTarget
  log: LogRing
  startupTimeoutMs: number
  /** The process ended during the start. */
  exited: boolean
}

/** Why a local server did not start, in a sentence that says what to check. */
export function stdioStartFailure({
  error,
  target,
  log,
  startupTimeoutMs,
  exited
}: StartFailure): string {
  const command = target.label
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') {
    return `the command "${command}" was not found; check the command, or give its full path (the server's PATH is ${target.env.PATH ?? 'empty'})`
  }
  if (code === 'EACCES') {
    return `the command "${command}" cannot be run (permission denied); check that it is an executable program`
  }
  const tail = log.tail(5)
  const printed = tail.length > 0 ? `; it printed: ${tail.join(' | ')}` : ''
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !exited) {
    return `the server did not answer the MCP handshake within ${Math.round(startupTimeoutMs / 1000)} s; check that "${command}" is an MCP server speaking stdio${printed}`
  }
  if (exited || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    return `the server exited during startup${printed || '; it printed nothing on stderr'}`
  }
  const message = error instanceof Error ? error.message : String(error)
  return `the server failed to start: ${message}${printed}`
}
