import type { ApprovalRequest } from '../../../../shared/domain'

export interface ApprovalsState {
  /** Oldest first: the model asked in this order and waits on the first. */
  queue: ApprovalRequest[]
  respondingId: string | null
  error: string | null
}

export type ApprovalsAction =
  | { type: 'requested'; request: ApprovalRequest }
  | { type: 'restored'; sessionId: string; pending: ApprovalRequest[] }
  | { type: 'resolved'; approvalId: string }
  | { type: 'respond-started'; approvalId: string }
  | { type: 'respond-failed'; approvalId: string; error: string }

export const initialApprovalsState: ApprovalsState = { queue: [], respondingId: null, error: null }

function without(state: ApprovalsState, approvalId: string): ApprovalsState {
  return {
    queue: state.queue.filter((r) => r.approvalId !== approvalId),
    respondingId: state.respondingId === approvalId ? null : state.respondingId,
    error: state.respondingId === approvalId ? null : state.error
  }
}

export function approvalsReducer(state: ApprovalsState, action: ApprovalsAction): ApprovalsState {
  switch (action.type) {
    case 'requested':
      if (state.queue.some((r) => r.approvalId === action.request.approvalId)) return state
      return { ...state, queue: [...state.queue, action.request] }
    case 'restored': {
      // The snapshot is the truth for its session; requests for other sessions stay.
      const others = state.queue.filter((r) => r.sessionId !== action.sessionId)
      return { ...state, queue: [...others, ...action.pending] }
    }
    case 'resolved':
      return without(state, action.approvalId)
    case 'respond-started':
      return { ...state, respondingId: action.approvalId, error: null }
    case 'respond-failed':
      return state.respondingId === action.approvalId
        ? { ...state, respondingId: null, error: action.error }
        : state
  }
}

/** The requests this project's window should show, in order. */
export function visibleApprovals(
  state: ApprovalsState,
  sessionIds: ReadonlySet<string>
): ApprovalRequest[] {
  return state.queue.filter((r) => sessionIds.has(r.sessionId))
}
