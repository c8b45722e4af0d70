import type { McpStatus } from '../../../../shared/mcp'
import { useMcp } from './mcp-store'

/** The MCP servers of `workspace` as last read; null until read for that folder. */
export function useMcpStatus(workspace: string | null): McpStatus | null {
  return useMcp((s) => (s.state.workspace === workspace ? s.state.status : null))
}

/** Why the last read or action on the MCP servers failed; null when it did not. */
export function useMcpError(): string | null {
  return useMcp((s) => s.state.error)
}
