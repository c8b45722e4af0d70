import type { Elicitation } from '../../../../shared/elicitation'

/** Servers' requests for input this renderer knows of, oldest first, and the answer in flight. */
export interface ElicitationState {
  waiting: Elicitation[]
  /** The request whose answer is being sent (its buttons are disabled meanwhile). */
  sendingId: string | null
  /** Why the main process refused the last answer (a field that does not fit), for its dialog. */
  error: { elicitationId: string; text: string } | null
}

export type ElicitationAction =
  | { type: 'asked'; elicitation: Elicitation }
  | { type: 'resolved'; elicitationId: string }
  /** What waits in a project, as the main process lists it (a reload, a reconnect). */
  | { type: 'restored'; workspace: string; elicitations: Elicitation[] }
  | { type: 'sending'; elicitationId: string }
  | { type: 'refused'; elicitationId: string; text: string }
  /** The person changed a field: a refusal about the old values no longer holds. */
  | { type: 'edited'; elicitationId: string }

export const initialElicitationState: ElicitationState = {
  waiting: [],
  sendingId: null,
  error: null
}

/** The store's logic, without React: apply an event, get the next state. */
export function elicitationReducer(
  state: ElicitationState,
  action: ElicitationAction
): ElicitationState {
  switch (action.type) {
    case 'asked':
      if (state.waiting.some((e) => e.elicitationId === action.elicitation.elicitationId))
        return state
      return { ...state, waiting: [...state.waiting, action.elicitation] }
    case 'resolved':
      return {
        waiting: state.waiting.filter((e) => e.elicitationId !== action.elicitationId),
        sendingId: state.sendingId === action.elicitationId ? null : state.sendingId,
        error: state.error?.elicitationId === action.elicitationId ? null : state.error
      }
    case 'restored': {
      const others = state.waiting.filter((e) => e.workspace !== action.workspace)
      return { ...state, waiting: [...others, ...action.elicitations] }
    }
    case 'sending':
      return { ...state, sendingId: action.elicitationId, error: null }
    case 'edited':
      return state.error?.elicitationId === action.elicitationId ? { ...state, error: null } : state
    case 'refused':
      return {
        ...state,
        sendingId: null,
        error: { elicitationId: action.elicitationId, text: action.text }
      }
  }
}

/** The requests of one project's window, oldest first: only the first is shown. */
export function waitingIn(state: ElicitationState, workspace: string | null): Elicitation[] {
  return workspace ? state.waiting.filter((e) => e.workspace === workspace) : []
}
