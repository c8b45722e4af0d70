import type { FolderTrust } from '../../../../shared/domain'

/** Whether this window's folder is trusted, and the question about it. */
export interface TrustState {
  folder: string | null
  /** Null until the folder has been opened. */
  trust: FolderTrust | null
  /**
   * `first-open`: the folder was never answered for, and the project waits for the answer;
   * `change`: the person opened the question again from the folder's header.
   */
  dialog: 'closed' | 'first-open' | 'change'
  saving: boolean
  error: string | null
}

export type TrustAction =
  | { type: 'opened'; folder: string; trust: FolderTrust }
  | { type: 'change' }
  | { type: 'close' }
  | { type: 'saving' }
  | { type: 'saved'; trust: FolderTrust }
  | { type: 'save-failed'; error: string }

export const initialTrustState: TrustState = {
  folder: null,
  trust: null,
  dialog: 'closed',
  saving: false,
  error: null
}

export function trustReducer(state: TrustState, action: TrustAction): TrustState {
  switch (action.type) {
    case 'opened':
      return {
        ...initialTrustState,
        folder: action.folder,
        trust: action.trust,
        dialog: action.trust === 'unknown' ? 'first-open' : 'closed'
      }
    case 'change':
      return { ...state, dialog: 'change', error: null }
    case 'close':
      // The first question has no way out but an answer: the project opens only after it.
      return state.dialog === 'change' ? { ...state, dialog: 'closed', error: null } : state
    case 'saving':
      return { ...state, saving: true, error: null }
    case 'saved':
      return { ...state, trust: action.trust, dialog: 'closed', saving: false, error: null }
    case 'save-failed':
      return { ...state, saving: false, error: action.error }
  }
}
