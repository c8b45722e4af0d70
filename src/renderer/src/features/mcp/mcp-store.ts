import { call, onEvent } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { saveSettings, useSettings } from '../settings/settings-store'
import {
  draftToSettings,
  mergeImported,
  placeServerIssues,
  serverName,
  serversOf,
  withEnabled,
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

/** Writes the user's server list into settings and saves, so it applies at once. */
async function saveServers(list: Record<string, unknown>[]): Promise<boolean> {
  const settings = useSettings.getState()
  const before = settings.state.base.mcp
  settings.dispatch({ type: 'base-set', key: 'mcp', value: list })
  const saved = await saveSettings()
  if (saved) void loadMcpStatus(current().workspace)
  // A refused list is not left behind to be saved later by another button.
  else settings.dispatch({ type: 'base-set', key: 'mcp', value: before })
  return saved
}

function userServers(): Record<string, unknown>[] {
  return serversOf(useSettings.getState().state.base)
}

/** Validates the form, puts its server into settings and saves; the form stays open on problems. */
export async function saveServerForm(): Promise<void> {
  const { form } = current()
  const list = userServers()
  const others = list.filter((_, i) => i !== form.editing).map(serverName)
  const checked = draftToSettings(form.draft, others)
  if (!checked.ok) {
    dispatch({ type: 'form-issues', issues: checked.issues })
    return
  }
  dispatch({ type: 'form-saving', saving: true })
  const index = form.editing ?? list.length
  if (await saveServers(withServer(list, form.editing, checked.value))) {
    dispatch({ type: 'form-close' })
    return
  }
  // The main process refused it: show its reasons beside the fields.
  dispatch({
    type: 'form-issues',
    issues: placeServerIssues(useSettings.getState().state.saveIssues, index)
  })
}

export async function removeServer(index: number): Promise<void> {
  if (current().form.editing === index) dispatch({ type: 'form-close' })
  await saveServers(withoutServer(userServers(), index))
}

export async function setEnabled(index: number, enabled: boolean): Promise<void> {
  await saveServers(withEnabled(userServers(), index, enabled))
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
    const saved = await saveServers(merged.list)
    notes.unshift(
      saved
        ? `Added ${merged.added.join(', ')}.`
        : 'The servers could not be saved; see the problems at the bottom.'
    )
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
