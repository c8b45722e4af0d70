import type { Capabilities } from '../../shared/domain'
import type { McpForce } from '../../shared/mcp'

/** The hints an MCP server may give about a tool (MCP `ToolAnnotations`). */
export interface ToolHints {
  readOnlyHint?: boolean
  destructiveHint?: boolean
  openWorldHint?: boolean
}

export interface MappedTool {
  readOnly: boolean
  capabilities: Capabilities
}

const egressRank = { none: 0, blind: 1, chosen: 2 } as const

/**
 * A server's hints as capabilities. Every MCP tool may see private data. A hint left out counts
 * as the MCP default, which is the distrustful one: open world (untrusted input, chosen egress)
 * and, unless read-only, destructive. `force` only widens: it can make a read-only tool
 * destructive (and so not read-only), never the other way.
 */
export function capabilitiesFromHints(hints: ToolHints | undefined, force: McpForce): MappedTool {
  const openWorld = hints?.openWorldHint ?? true
  const declaredReadOnly = hints?.readOnlyHint ?? false
  const readOnly = declaredReadOnly && !force.destructive
  const destructive =
    Boolean(force.destructive) || (!declaredReadOnly && (hints?.destructiveHint ?? true))
  const egress = openWorld ? 'chosen' : 'none'
  const forcedEgress = force.egress ?? 'none'
  return {
    readOnly,
    capabilities: {
      privateData: true,
      untrustedInput: openWorld || Boolean(force.untrustedInput),
      egress: egressRank[forcedEgress] > egressRank[egress] ? forcedEgress : egress,
      destructive
    }
  }
}
