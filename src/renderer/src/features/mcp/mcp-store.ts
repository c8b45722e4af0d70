import { call, onEvent } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
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

/** After Save: the servers start, stop or restart as the saved list says. */
export function reloadAfterSave(): Promise<void> {
  return loadMcpStatus(current().workspace)
}

/** Discard: closes the form; the list itself comes back with the settings as they were read. */
export function discardServerForm(): void {
  dispatch({ type: 'form-close' })
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
