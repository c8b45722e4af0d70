import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { navigateToFolder } from '../../app/navigation'
import { initialWelcomeState, welcomeReducer } from './welcome-reducer'

export const useWelcome = createReducerStore(welcomeReducer, initialWelcomeState)

const dispatch = useWelcome.getState().dispatch

export async function loadRecent(): Promise<void> {
  dispatch({ type: 'recent-loading' })
  try {
    const { folders } = await call('workspace.recent', {})
    dispatch({ type: 'recent-loaded', folders })
  } catch {
    dispatch({ type: 'recent-failed' })
  }
}

/** Opens `path` in this window, unless another window already shows it (the main process then
 * focuses that one: one window per folder). */
export async function openFolder(path: string): Promise<void> {
  const trimmed = path.trim()
  if (!trimmed) {
    dispatch({
      type: 'open-failed',
      error: 'Type the full path of a folder, for example /home/you/project.'
    })
    return
  }
  dispatch({ type: 'open-started', path: trimmed })
  try {
    const opened = await call('workspace.open', { path: trimmed })
    if (opened.openedElsewhere) {
      dispatch({ type: 'opened-elsewhere', path: opened.path })
      return
    }
    dispatch({ type: 'open-finished' })
    navigateToFolder(opened.path)
  } catch (error) {
    dispatch({ type: 'open-failed', error: errorMessage(error) })
  }
}

export async function pickFolder(): Promise<void> {
  try {
    const { path } = await call('workspace.pickFolder', {})
    if (path) await openFolder(path)
  } catch (error) {
    dispatch({ type: 'open-failed', error: errorMessage(error) })
  }
}
