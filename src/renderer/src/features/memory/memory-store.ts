import { call, onEvent } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import type { MemoryScope } from '../../../../shared/memory'
import { initialMemoryState, memoryReducer, type MemoryAction } from './memory-reducer'

export const useMemory = createReducerStore(memoryReducer, initialMemoryState)

const dispatch = useMemory.getState().dispatch
const current = (): typeof initialMemoryState => useMemory.getState().state
let requests = 0
let listening = false

/** Where the browser is looking: the scope, and the folder when it is the project's memory. */
function target(): { scope: MemoryScope; workspace?: string } | null {
  const { scope, workspace } = current()
  if (scope === 'user') return { scope }
  return workspace ? { scope, workspace } : null
}

// The model remembers while the browser is open: follow its changes in the scope shown.
function listen(): void {
  if (listening) return
  listening = true
  onEvent('memory.changed', (change) => {
    const { scope, workspace, selected } = current()
    if (change.scope !== scope || (scope === 'project' && change.workspace !== workspace)) return
    void loadList()
    if (selected?.toLowerCase() === change.name.toLowerCase()) void loadDetail(selected)
  })
}

/** Shows `scope` for the open project (or none) and loads its list. */
export function openMemory(workspace: string | null, scope?: MemoryScope): Promise<void> {
  listen()
  dispatch({ type: 'workspace', workspace })
  if (scope) dispatch({ type: 'scope', scope })
  return loadList()
}

export function setQuery(query: string): Promise<void> {
  dispatch({ type: 'query', query })
  return loadList()
}

export async function loadList(): Promise<void> {
  const where = target()
  const request = ++requests
  dispatch({ type: 'list-requested', request })
  if (!where) {
    dispatch({ type: 'list-loaded', request, items: [] })
    return
  }
  try {
    const { items } = await call('memory.search', { ...where, query: current().query })
    dispatch({ type: 'list-loaded', request, items })
  } catch (error) {
    dispatch({ type: 'list-failed', request, error: errorMessage(error) })
  }
}

export function select(name: string): Promise<void> {
  dispatch({ type: 'select', name })
  return loadDetail(name)
}

async function loadDetail(name: string): Promise<void> {
  const where = target()
  if (!where) return
  try {
    dispatch({ type: 'detail-loaded', detail: await call('memory.inspect', { ...where, name }) })
  } catch (error) {
    dispatch({ type: 'detail-failed', name, error: errorMessage(error) })
  }
}

/**
 * Forget or Undo on the version shown, as the tools do. When the memory changed since it was
 * shown, the main process refuses; the new state is loaded so the person decides again on it.
 */
export async function runAction(action: MemoryAction): Promise<void> {
  const { detail } = current()
  const where = target()
  if (!detail || !where) return
  dispatch({ type: 'action-started' })
  const input = { ...where, name: detail.entry.name, expectedVersion: detail.entry.version }
  try {
    const after = await call(action === 'forget' ? 'memory.forget' : 'memory.undo', input)
    dispatch({ type: 'action-done', action, detail: after })
  } catch (error) {
    dispatch({ type: 'action-failed', error: errorMessage(error) })
    await loadDetail(detail.entry.name)
  }
}
