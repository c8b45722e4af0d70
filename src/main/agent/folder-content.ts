import type { Capabilities } from '../../shared/domain'
import type { Provenance } from '../../shared/provenance'
import type { Taint } from '../gate/taint'
import type { StoredEvent } from '../store/session-store'
import type { Tool } from '../tools/tool'

/**
 * A call's capabilities in a folder whose authors are not trusted: a result that carries the
 * folder's content (the tool's `folderContent`) is also untrusted input, as a web page is. Only
 * ever a widening.
 */
export function inUntrustedFolder(tool: Tool, capabilities: Capabilities): Capabilities {
  if (!tool.folderContent) return capabilities
  if (capabilities.untrustedInput) return capabilities
  return { ...capabilities, untrustedInput: true }
}

/**
 * The tool the gate judges for a call in a folder whose authors are not trusted: with the call's
 * widened capabilities, and with the tool's `untrustedFolderAsks` as a reason only a person can
 * answer (as Shell's `escapes`), beside any the tool gives itself.
 */
export function judgedInUntrustedFolder(tool: Tool, capabilities: Capabilities): Tool {
  const asks = tool.untrustedFolderAsks
  if (!asks) return capabilities === tool.capabilities ? tool : { ...tool, capabilities }
  return {
    ...tool,
    capabilities,
    escapes: (input) => {
      const own = tool.escapes?.(input)
      return own ? `${own}; also, ${asks}` : asks
    }
  }
}

/**
 * Where what a session's calls write comes from, as it stands now: a folder not trusted says so
 * first (its words are in every conversation there), then any untrusted input that came in.
 */
export function sessionProvenance(session: {
  readonly id: string
  readonly workspace: string
  readonly folderTrusted: boolean
  readonly taint: Taint
}): Provenance {
  const trust = !session.folderTrusted
    ? 'untrusted-folder'
    : session.taint.untrustedInput
      ? 'untrusted-input'
      : 'trusted'
  return { trust, sessionId: session.id, folder: session.workspace }
}

/**
 * Whether a recorded session was made in a folder that was not trusted. Any summary that says so
 * wins: trust only ever narrows for a session, so it is never loaded back trusted once it was not.
 */
export function recordedUntrustedFolder(events: readonly StoredEvent[]): boolean {
  return events.some(
    (event) => event.kind === 'session.updated' && event.payload.folderTrust === 'untrusted'
  )
}
