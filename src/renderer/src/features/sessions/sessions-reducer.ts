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

export const initialSessionsState: SessionsState = {
  folder: null,
  workspace: null,
  status: 'idle',
  error: null,
  sessions: [],
  selectedId: null,
  creating: false
}

function byActivity(a: SessionSummary, b: SessionSummary): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt
}

function upsert(list: SessionSummary[], session: SessionSummary): SessionSummary[] {
  const rest = list.filter((s) => s.id !== session.id)
  return [...rest, session].sort(byActivity)
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
  }
}

export function selectedSession(state: SessionsState): SessionSummary | null {
  return state.sessions.find((s) => s.id === state.selectedId) ?? null
}
