import type { FolderTrust } from '../../../../shared/domain'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { initialTrustState, trustReducer } from './trust-reducer'

export const useTrust = createReducerStore(trustReducer, initialTrustState)

const dispatch = useTrust.getState().dispatch
/** Resolves the wait of a project opening on the first question, once it is answered. */
let answered: (() => void) | null = null

/**
 * The folder was opened and its trust is known. A folder never answered for is asked about
 * first, and the returned promise waits for the answer: the project's first session must be
 * made with it.
 */
export function folderOpened(folder: string, trust: FolderTrust): Promise<void> {
  dispatch({ type: 'opened', folder, trust })
  if (trust !== 'unknown') return Promise.resolve()
  return new Promise((resolve) => {
    answered = resolve
  })
}

/** Saves the person's answer for this window's folder. */
export async function answerTrust(trust: 'trusted' | 'untrusted'): Promise<void> {
  const { folder, saving } = useTrust.getState().state
  if (!folder || saving) return
  dispatch({ type: 'saving' })
  try {
    const saved = await call('workspace.setTrust', { path: folder, trust })
    dispatch({ type: 'saved', trust: saved.trust })
    answered?.()
    answered = null
  } catch (error) {
    dispatch({ type: 'save-failed', error: errorMessage(error) })
  }
}

/** Opens the question again, from the folder's header, to change the answer. */
export function changeTrust(): void {
  dispatch({ type: 'change' })
}

export function closeTrustDialog(): void {
  dispatch({ type: 'close' })
}
