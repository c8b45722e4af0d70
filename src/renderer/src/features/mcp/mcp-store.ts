import { call, onEvent } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { useSettings } from '../settings/settings-store'
import {
  draftFromSettings,
  draftToSettings,
  mergeImported,
  placeServerIssues,
  serverName,
  serversOf,
  withEnabled,
  withToolEnabled,
  withServer,
  withoutServer
} from './mcp-model'
import { initialMcpState, mcpReducer } from './mcp-reducer'

export const useMcp = createReducerStore(mcpReducer, initialMcpState)

const dispatch = useMcp.getState().dispatch
const current = (): typeof initialMcpState => useMcp.getState().state
let listening = false

// Servers report every change (state, tools, log) as an event; follow them from the first load.
function listen(): void {
  if (listening) return
  listening = true
  onEvent('mcp.updated', (status) => {
    const before = current()
    dispatch({ type: 'status-loaded', status })
    const open = before.expanded
    if (open && before.tab === 'log' && status.workspace === before.workspace) {
      const was = before.status?.servers.find((s) => s.name === open)?.logCount
      const now = status.servers.find((s) => s.name === open)?.logCount
      if (was !== now) void loadLog(open)
    }
  })
}

/** Loads the servers of `workspace` (starting them if they are not yet running). */
export async function loadMcpStatus(workspace: string | null): Promise<void> {
  listen()
  dispatch({ type: 'status-requested', workspace })
  try {
    const status = await call('mcp.status', workspace ? { workspace } : {})
    dispatch({ type: 'status-loaded', status })
  } catch (error) {
    dispatch({ type: 'status-failed', error: errorMessage(error) })
  }
}

export async function loadLog(name: string): Promise<void> {
  const { workspace } = current()
  try {
    const { lines } = await call('mcp.log', workspace ? { workspace, name } : { name })
    dispatch({ type: 'log-loaded', name, lines })
  } catch (error) {
    dispatch({ type: 'action-failed', error: errorMessage(error) })
  }
}

export function showDetails(name: string, tab: 'tools' | 'resources' | 'prompts' | 'log'): void {
  const state = current()
  const closing = state.expanded === name && state.tab === tab
  dispatch({ type: 'expand', name: closing ? null : name, tab })
  if (!closing && tab === 'log') void loadLog(name)
}

async function withBusy(name: string, run: () => Promise<void>): Promise<void> {
  dispatch({ type: 'busy', name, busy: true })
  dispatch({ type: 'action-failed', error: null })
  try {
    await run()
  } catch (error) {
    dispatch({ type: 'action-failed', error: errorMessage(error) })
  } finally {
    dispatch({ type: 'busy', name, busy: false })
  }
}

export function restartServer(name: string): Promise<void> {
  const { workspace } = current()
  if (!workspace) return Promise.resolve()
  return withBusy(name, async () => {
    dispatch({ type: 'status-loaded', status: await call('mcp.restart', { workspace, name }) })
  })
}

/**
 * Signs in to a remote server (OAuth): its authorization page opens in a new tab (the system
 * browser on the desktop); the server starts by itself once the browser comes back signed in.
 * The tab is opened before the answer comes, in the click, so no popup blocker stops it.
 */
export function signIn(name: string): Promise<void> {
  const { workspace } = current()
  if (!workspace) return Promise.resolve()
  const tab = window.open('about:blank', '_blank')
  if (tab) tab.opener = null
  return withBusy(name, async () => {
    try {
      const { url } = await call('mcp.signIn', { workspace, name })
      if (!url) tab?.close()
      else if (tab) tab.location.href = url
      else window.open(url, '_blank', 'noopener')
    } catch (error) {
      tab?.close()
      throw error
    }
    await loadMcpStatus(workspace)
  })
}

/** Forgets a remote server's sign-in; it then waits for a new one. */
export function signOut(name: string): Promise<void> {
  const { workspace } = current()
  if (!workspace) return Promise.resolve()
  return withBusy(name, async () => {
    dispatch({ type: 'status-loaded', status: await call('mcp.signOut', { workspace, name }) })
  })
}

/** Trusts (or stops trusting) project-defined servers for this folder; trusted ones start. */
export function setTrust(names: string[], trust: boolean): Promise<void> {
  const { workspace } = current()
  if (!workspace || names.length === 0) return Promise.resolve()
  return withBusy(names.join(','), async () => {
    dispatch({
      type: 'status-loaded',
      status: await call('mcp.trust', { workspace, names, trust })
    })
  })
}

/** Puts the user's server list into the settings draft; the Save bar writes it with the rest. */
function draftServers(list: Record<string, unknown>[]): void {
  useSettings.getState().dispatch({ type: 'base-set', key: 'mcp', value: list })
}

function userServers(): Record<string, unknown>[] {
  return serversOf(useSettings.getState().state.base)
}

/**
 * Validates the form and puts its server into the settings draft (Save writes it); the form stays
 * open on problems.
 */
export function applyServerForm(): void {
  const { form } = current()
  const list = userServers()
  const others = list.filter((_, i) => i !== form.editing).map(serverName)
  const checked = draftToSettings(form.draft, others)
  if (!checked.ok) {
    dispatch({ type: 'form-issues', issues: checked.issues })
    return
  }
  draftServers(withServer(list, form.editing, checked.value))
  dispatch({ type: 'form-close' })
}

/**
 * After Save refused the settings: reopens the form on the first user server the main process
 * named, with its reasons beside the fields. Nothing typed is lost: it is still in the draft.
 */
export function showServerIssues(raw: readonly { path: string; message: string }[]): void {
  const issues = raw.map((issue) => ({ ...issue, path: issue.path.replace(/^settings\./, '') }))
  const list = userServers()
  const index = list.findIndex((_, i) => Object.keys(placeServerIssues(issues, i)).length > 0)
  const server = list[index]
  if (!server) return
  dispatch({ type: 'form-open', editing: index, draft: draftFromSettings(server) })
  dispatch({ type: 'form-issues', issues: placeServerIssues(issues, index) })
}

export function removeServer(index: number): void {
  if (current().form.editing === index) dispatch({ type: 'form-close' })
  draftServers(withoutServer(userServers(), index))
}

export function setEnabled(index: number, enabled: boolean): void {
  draftServers(withEnabled(userServers(), index, enabled))
}

/** Switches one tool of a server on or off in the draft; Save applies it to the catalog. */
export function setToolEnabled(index: number, tool: string, enabled: boolean): void {
  draftServers(withToolEnabled(userServers(), index, tool, enabled))
}

/** After Save: the servers start, stop or restart as the saved list says. */
export function reloadAfterSave(): Promise<void> {
  return loadMcpStatus(current().workspace)
}

/** Discard: closes the form; the list itself comes back with the settings as they were read. */
export function discardServerForm(): void {
  dispatch({ type: 'form-close' })
}

/** Reads a Claude Desktop config or `.mcp.json` (by path or pasted) and adds its servers. */
export async function importServers(): Promise<void> {
  const { importer } = current()
  dispatch({ type: 'import-started' })
  try {
    const result = await call(
      'mcp.import',
      importer.path.trim() ? { path: importer.path.trim() } : { text: importer.text }
    )
    const merged = mergeImported(userServers(), result.servers)
    const notes = [...result.notes]
    if (merged.skipped.length > 0) {
      notes.push(`Already configured, so left as they are: ${merged.skipped.join(', ')}.`)
    }
    if (merged.added.length === 0) {
      dispatch({ type: 'import-done', notes: [...notes, 'No server was added.'] })
      return
    }
    draftServers(merged.list)
    notes.unshift(`Added ${merged.added.join(', ')}; Save at the bottom keeps them.`)
    dispatch({ type: 'import-done', notes })
  } catch (error) {
    dispatch({ type: 'import-failed', error: errorMessage(error) })
  }
}

/** A server's prompt as text for the chat input. */
export async function fetchPrompt(
  server: string,
  prompt: string,
  args: Record<string, string>
): Promise<string> {
  const { workspace } = current()
  if (!workspace) throw new Error('open a project folder to use its MCP prompts')
  const { text } = await call('mcp.prompt', { workspace, server, prompt, arguments: args })
  return text
}
