/** Replay: a finished session shown again one transcript item at a time. */
export interface ReplayState {
  /** The session being replayed; null when not replaying. */
  sessionId: string | null
  /** How many items are shown (1 to total). */
  step: number
  total: number
}

export type ReplayAction =
  | { type: 'start'; sessionId: string; total: number }
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'first' }
  | { type: 'last' }
  | { type: 'stop' }

export const initialReplayState: ReplayState = { sessionId: null, step: 0, total: 0 }

export function replayReducer(state: ReplayState, action: ReplayAction): ReplayState {
  switch (action.type) {
    case 'start':
      if (action.total === 0) return state
      return { sessionId: action.sessionId, step: 1, total: action.total }
    case 'next':
      return state.sessionId ? { ...state, step: Math.min(state.total, state.step + 1) } : state
    case 'prev':
      return state.sessionId ? { ...state, step: Math.max(1, state.step - 1) } : state
    case 'first':
      return state.sessionId ? { ...state, step: 1 } : state
    case 'last':
      return state.sessionId ? { ...state, step: state.total } : state
    case 'stop':
      return initialReplayState
  }
}

/** The items replay shows of a session's transcript: all of them when it is not replaying. */
export function replayedItems<T>(state: ReplayState, sessionId: string | null, items: T[]): T[] {
  return state.sessionId !== null && state.sessionId === sessionId
    ? items.slice(0, state.step)
    : items
}
