import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { editDraft, mcpEntriesOf, settingsNow } from '../settings'
import {
  draftFromSettings,
  draftToSettings,
  mergeImported,
  placeServerIssues,
  serverName
} from './mcp-model'
import { useMcp } from './mcp-store'

// The user's servers live in the settings draft alone: this screen reads them from there and
// edits them there, and the Save bar writes them with the rest of the file.
const mcp = (): ReturnType<typeof useMcp.getState> => useMcp.getState()
const entries = (): readonly unknown[] => mcpEntriesOf(settingsNow().draft)

/**
 * Checks the form with the schema and puts its server into the settings draft; on problems the
 * form stays open with everything typed, each reason beside its field.
 */
export function applyServerForm(): void {
  const { form } = mcp().state
  const others = entries()
    .filter((_, i) => i !== form.editing)
    .map(serverName)
  const previous = form.editing === null ? null : entries()[form.editing]
  const checked = draftToSettings(form.draft, others, previous)
  if (!checked.ok) {
    mcp().dispatch({ type: 'form-issues', issues: checked.issues })
    return
  }
  editDraft({ type: 'mcp-server-put', index: form.editing, server: checked.value })
  mcp().dispatch({ type: 'form-close' })
}

/**
 * After Save refused the settings: reopens the form on the first user server the main process
 * named, with its reasons beside the fields. Nothing typed is lost: it is still in the draft.
 */
export function showServerIssues(raw: readonly { path: string; message: string }[]): void {
  const issues = raw.map((issue) => ({ ...issue, path: issue.path.replace(/^settings\./, '') }))
  const list = entries()
  const index = list.findIndex((_, i) => Object.keys(placeServerIssues(issues, i)).length > 0)
  if (index < 0) return
  mcp().dispatch({ type: 'form-open', editing: index, draft: draftFromSettings(list[index]) })
  mcp().dispatch({ type: 'form-issues', issues: placeServerIssues(issues, index) })
}

export function removeServer(index: number): void {
  if (mcp().state.form.editing === index) mcp().dispatch({ type: 'form-close' })
  editDraft({ type: 'mcp-server-remove', index })
}

export function setEnabled(index: number, enabled: boolean): void {
  editDraft({ type: 'mcp-server-enabled', index, enabled })
}

/** Switches one tool of a server on or off in the draft; Save applies it to the catalog. */
export function setToolEnabled(index: number, tool: string, enabled: boolean): void {
  editDraft({ type: 'mcp-tool-enabled', index, tool, enabled })
}

/** Reads a Claude Desktop config or `.mcp.json` (by path or pasted) and adds its servers. */
export async function importServers(): Promise<void> {
  const { importer } = mcp().state
  mcp().dispatch({ type: 'import-started' })
  try {
    const result = await call(
      'mcp.import',
      importer.path.trim() ? { path: importer.path.trim() } : { text: importer.text }
    )
    const merged = mergeImported(entries(), result.servers)
    const notes = [...result.notes]
    if (merged.skipped.length > 0) {
      notes.push(`Already configured, so left as they are: ${merged.skipped.join(', ')}.`)
    }
    if (merged.unread.length > 0) notes.push(`Not added: ${merged.unread.join('; ')}.`)
    if (merged.added.length === 0) {
      mcp().dispatch({ type: 'import-done', notes: [...notes, 'No server was added.'] })
      return
    }
    editDraft({ type: 'mcp-servers-add', servers: merged.servers })
    notes.unshift(`Added ${merged.added.join(', ')}; Save at the bottom keeps them.`)
    mcp().dispatch({ type: 'import-done', notes })
  } catch (error) {
    mcp().dispatch({ type: 'import-failed', error: errorMessage(error) })
  }
}
