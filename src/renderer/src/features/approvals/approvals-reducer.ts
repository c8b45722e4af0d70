import type { ApprovalRequest } from '../../../../shared/approvals'

export interface ApprovalsState {
  /** Oldest first: the model asked in this order and waits on the first. */
  queue: ApprovalRequest[]
  respondingId: string | null
  /** Answered and taken by the main process, waiting only for `approval.resolved`. */
  answered: string[]
  error: string | null
  /** The person closed the dialog to read the transcript; a bar brings it back. */
  reviewing: boolean
}

export type ApprovalsAction =
  | { type: 'requested'; request: ApprovalRequest }
  | { type: 'restored'; sessionId: string; pending: ApprovalRequest[] }
  | { type: 'resolved'; approvalId: string }
  | { type: 'respond-started'; approvalId: string }
  | { type: 'respond-done'; approvalId: string }
  | { type: 'respond-failed'; approvalId: string; error: string }
  | { type: 'review-started' }
  | { type: 'review-ended' }

export const initialApprovalsState: ApprovalsState = {
  queue: [],
  respondingId: null,
  answered: [],
  error: null,
  reviewing: false
}

function without(state: ApprovalsState, approvalId: string): ApprovalsState {
  const queue = state.queue.filter((r) => r.approvalId !== approvalId)
  return {
    queue,
    respondingId: state.respondingId === approvalId ? null : state.respondingId,
    answered: state.answered.filter((id) => id !== approvalId),
    error: state.respondingId === approvalId ? null : state.error,
    // Nothing left to come back to.
    reviewing: queue.length > 0 && state.reviewing
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
      const queue = [...others, ...action.pending]
      return { ...state, queue, reviewing: queue.length > 0 && state.reviewing }
    }
    case 'resolved':
      return without(state, action.approvalId)
    case 'respond-started':
      return { ...state, respondingId: action.approvalId, error: null }
    case 'respond-done':
      return {
        ...state,
        respondingId: state.respondingId === action.approvalId ? null : state.respondingId,
        answered: [...state.answered, action.approvalId]
      }
    case 'respond-failed':
      return state.respondingId === action.approvalId
        ? { ...state, respondingId: null, error: action.error }
        : state
    case 'review-started':
      return state.queue.length > 0 ? { ...state, reviewing: true } : state
    case 'review-ended':
      return { ...state, reviewing: false }
  }
}

/** The requests this project's window should show, in order; an answered one is not asked again. */
export function visibleApprovals(
  state: ApprovalsState,
  sessionIds: ReadonlySet<string>
): ApprovalRequest[] {
  return state.queue.filter(
    (r) => sessionIds.has(r.sessionId) && !state.answered.includes(r.approvalId)
  )
}
