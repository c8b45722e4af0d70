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
 * A server's hints as capabilities. Every MCP tool may see private data, and that is all an
 * unannotated tool is taken to do: it is not read-only (so `ask` mode asks before it runs), but
 * it is not assumed to bring in untrusted input or to send anywhere. Assuming the MCP spec's
 * open-world default instead would arm the interlock on one unannotated call and shut Shell off
 * for the rest of the session, for a tool that may only read a local database. The hints a server
 * does give are taken at their word: `openWorldHint` means untrusted input and a send the model
 * aims, `destructiveHint` destructive, `readOnlyHint` read-only. A `remote` server's tool sends
 * at least blindly: what the model passes it leaves the machine, to the address the settings
 * fixed. `force` only widens: it can make a read-only tool destructive (and so not read-only),
 * never the other way.
 */
export function capabilitiesFromHints(
  hints: ToolHints | undefined,
  force: McpForce,
  remote = false
): MappedTool {
  const openWorld = hints?.openWorldHint === true
  const declaredReadOnly = hints?.readOnlyHint === true
  const readOnly = declaredReadOnly && !force.destructive
  const destructive =
    Boolean(force.destructive) || (!declaredReadOnly && hints?.destructiveHint === true)
  const egress = openWorld ? 'chosen' : remote ? 'blind' : 'none'
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
