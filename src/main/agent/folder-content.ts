import type { Capabilities } from '../../shared/domain'
import type { StoredEvent } from '../store/session-store'
import type { Tool } from '../tools/tool'

/**
 * The built-in tools whose results carry what is in the project folder: its files' text, their
 * names, a command's output, a skill kept in it. Write, Copy, Move and Remove answer with the
 * paths the model gave them, so they bring nothing of the folder's in.
 */
const FOLDER_CONTENT = new Set([
  'Read',
  'Grep',
  'Glob',
  'ListDir',
  'Edit',
  'Shell',
  'ShellStatus',
  'Skill'
])

/**
 * A call's capabilities in a folder whose authors are not trusted: a result that carries the
 * folder's content is also untrusted input, as a web page is. Only ever a widening.
 */
export function inUntrustedFolder(tool: Tool, capabilities: Capabilities): Capabilities {
  if (tool.source !== 'builtin' || !FOLDER_CONTENT.has(tool.name)) return capabilities
  if (capabilities.untrustedInput) return capabilities
  return { ...capabilities, untrustedInput: true }
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
