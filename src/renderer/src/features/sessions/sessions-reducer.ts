import type { SessionSummary } from '../../../../shared/domain'

export interface SessionsState {
  /** The folder as the URL named it, and as `workspace.open` canonicalised it. */
  folder: string | null
  workspace: string | null
  status: 'idle' | 'opening' | 'ready' | 'error'
  error: string | null
  sessions: SessionSummary[]
  selectedId: string | null
  creating: boolean
  /** The search box's text; while it is not blank the list shows only `hits`. */
  query: string
  /** Sessions matching `query`, by id, with the words around the match; null while searching. */
  hits: { id: string; snippet: string }[] | null
}

export type SessionsAction =
  | { type: 'open-started'; folder: string }
  | { type: 'opened'; workspace: string; sessions: SessionSummary[]; selectedId: string | null }
  | { type: 'open-failed'; error: string }
  | { type: 'listed'; sessions: SessionSummary[] }
  | { type: 'select'; sessionId: string }
  | { type: 'create-started' }
  | { type: 'created'; session: SessionSummary }
  | { type: 'create-failed'; error: string }
  | { type: 'session-updated'; session: SessionSummary }
  | { type: 'deleted'; sessionId: string }
  | { type: 'search'; query: string }
  | { type: 'search-results'; query: string; hits: { id: string; snippet: string }[] }

export const initialSessionsState: SessionsState = {
  folder: null,
  workspace: null,
  status: 'idle',
  error: null,
  sessions: [],
  selectedId: null,
  creating: false,
  query: '',
  hits: null
}

function byActivity(a: SessionSummary, b: SessionSummary): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt
}

function upsert(list: SessionSummary[], session: SessionSummary): SessionSummary[] {
  const previous = list.find((s) => s.id === session.id)
  // Only the list and a session's snapshot carry its recorded size; an update keeps the last.
  const sized =
    session.sizeBytes === undefined && previous?.sizeBytes !== undefined
      ? { ...session, sizeBytes: previous.sizeBytes }
      : session
  const rest = list.filter((s) => s.id !== session.id)
  return [...rest, sized].sort(byActivity)
}

/** Whether a summary belongs to the open project (the server may tell every tab everything). */
export function belongsToProject(state: SessionsState, session: SessionSummary): boolean {
  return session.workspace === state.workspace || session.workspace === state.folder
}

export function sessionsReducer(state: SessionsState, action: SessionsAction): SessionsState {
  switch (action.type) {
    case 'open-started':
      return { ...initialSessionsState, folder: action.folder, status: 'opening' }
    case 'opened': {
      const sessions = [...action.sessions].sort(byActivity)
      const selectedId =
        action.selectedId && sessions.some((s) => s.id === action.selectedId)
          ? action.selectedId
          : (sessions[0]?.id ?? null)
      return { ...state, workspace: action.workspace, status: 'ready', sessions, selectedId }
    }
    case 'open-failed':
      return { ...state, status: 'error', error: action.error }
    case 'listed': {
      // A refresh (after a reconnect) must not lose the selection if it still exists.
      const sessions = [...action.sessions].sort(byActivity)
      const keep = sessions.some((s) => s.id === state.selectedId)
      return { ...state, sessions, selectedId: keep ? state.selectedId : (sessions[0]?.id ?? null) }
    }
    case 'select':
      return { ...state, selectedId: action.sessionId }
    case 'create-started':
      return { ...state, creating: true, error: null }
    case 'created':
      return {
        ...state,
        creating: false,
        sessions: upsert(state.sessions, action.session),
        selectedId: action.session.id
      }
    case 'create-failed':
      return { ...state, creating: false, error: action.error }
    case 'session-updated':
      if (state.status !== 'ready' || !belongsToProject(state, action.session)) return state
      return { ...state, sessions: upsert(state.sessions, action.session) }
    case 'deleted': {
      const sessions = state.sessions.filter((s) => s.id !== action.sessionId)
      const selectedId =
        state.selectedId === action.sessionId ? (sessions[0]?.id ?? null) : state.selectedId
      const hits = state.hits?.filter((h) => h.id !== action.sessionId) ?? null
      return { ...state, sessions, selectedId, hits }
    }
    case 'search':
      return { ...state, query: action.query, hits: null }
    case 'search-results':
      // An answer to an older query (the person kept typing) is dropped.
      return action.query === state.query ? { ...state, hits: action.hits } : state
  }
}

export function selectedSession(state: SessionsState): SessionSummary | null {
  return state.sessions.find((s) => s.id === state.selectedId) ?? null
}

/**
 * The sessions the list shows: all of them, or while a search is typed the matching ones with
 * their snippets (none while the answer is on its way).
 */
export function visibleSessions(
  state: SessionsState
): { session: SessionSummary; snippet: string | null }[] {
  if (!state.query.trim()) return state.sessions.map((session) => ({ session, snippet: null }))
  const byId = new Map(state.sessions.map((s) => [s.id, s]))
  return (state.hits ?? []).flatMap((hit) => {
    const session = byId.get(hit.id)
    return session ? [{ session, snippet: hit.snippet }] : []
  })
}
