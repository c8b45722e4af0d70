import { createReducerStore } from '../../lib/reducer-store'

/** The find bar over the conversation. */
export interface FindState {
  open: boolean
  query: string
  /** Bumped to put the caret in the find box (Ctrl/Cmd+F again while it is open). */
  focusSignal: number
  /** Bumped when a new search starts, to pick the first hit afresh. */
  searchSignal: number
  /** A session opened from the sessions search, waiting to be shown at its first hit. */
  landing: { sessionId: string; query: string } | null
}

export type FindAction =
  | { type: 'open'; query?: string; focus: boolean }
  | { type: 'close' }
  | { type: 'query'; query: string }
  | { type: 'land'; sessionId: string; query: string }
  | { type: 'landed' }

export const initialFindState: FindState = {
  open: false,
  query: '',
  focusSignal: 0,
  searchSignal: 0,
  landing: null
}

/** Opening, closing and typing in the find bar; landing on a search hit opens it with the hit. */
export function findReducer(state: FindState, action: FindAction): FindState {
  switch (action.type) {
    case 'open': {
      const query = action.query ?? state.query
      return {
        ...state,
        open: true,
        query,
        focusSignal: state.focusSignal + (action.focus ? 1 : 0),
        searchSignal: state.searchSignal + (query !== state.query || !state.open ? 1 : 0)
      }
    }
    case 'close':
      return { ...state, open: false, landing: null }
    case 'query':
      return { ...state, query: action.query, searchSignal: state.searchSignal + 1 }
    case 'land':
      return { ...state, landing: { sessionId: action.sessionId, query: action.query } }
    case 'landed':
      return { ...state, landing: null }
  }
}

export const useFind = createReducerStore(findReducer, initialFindState)

/** Opens the find bar with the caret in it (Ctrl/Cmd+F). */
export function openFind(): void {
  useFind.getState().dispatch({ type: 'open', focus: true })
}

export function closeFind(): void {
  useFind.getState().dispatch({ type: 'close' })
}

/**
 * Asks for `sessionId` to be shown at the first place that mentions `query` once its transcript
 * is loaded (a click on a sessions search result).
 */
export function landOnHit(sessionId: string, query: string): void {
  if (query.trim()) useFind.getState().dispatch({ type: 'land', sessionId, query: query.trim() })
}

/** What the open find bar searches for; null while it is closed. */
export function useOpenFindQuery(): string | null {
  return useFind((s) => (s.state.open ? s.state.query : null))
}
