import type { ApprovalRequest } from '../../../../shared/approvals'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { approvalsReducer, initialApprovalsState } from './approvals-reducer'

export const useApprovals = createReducerStore(approvalsReducer, initialApprovalsState)

const dispatch = useApprovals.getState().dispatch

export function restoreApprovals(sessionId: string, pending: ApprovalRequest[]): void {
  dispatch({ type: 'restored', sessionId, pending })
}

/** A tool call asks the person (`approval.requested`). */
export function approvalRequested(request: ApprovalRequest): void {
  dispatch({ type: 'requested', request })
}

/** A request was settled, here or elsewhere (`approval.resolved`). */
export function approvalResolved(approvalId: string): void {
  dispatch({ type: 'resolved', approvalId })
}

/** Whether one of the session's tool calls waits for the person's approval. */
export function useAwaitingApproval(sessionId: string): boolean {
  return useApprovals((s) => s.state.queue.some((r) => r.sessionId === sessionId))
}

/** Answers a request; the modal closes when `approval.resolved` confirms it. */
export async function respondToApproval(
  approvalId: string,
  decision: 'allow' | 'deny',
  reason: string
): Promise<void> {
  if (useApprovals.getState().state.respondingId) return
  dispatch({ type: 'respond-started', approvalId })
  try {
    const trimmed = reason.trim()
    const { ok } = await call('approval.respond', {
      approvalId,
      decision,
      ...(trimmed ? { reason: trimmed } : {})
    })
    // Not ok: the request was already settled (another window, or the turn ended).
    dispatch(ok ? { type: 'respond-done', approvalId } : { type: 'resolved', approvalId })
  } catch (error) {
    dispatch({ type: 'respond-failed', approvalId, error: errorMessage(error) })
  }
}

/** Answers several requests the same way, one after another; stops at the first that fails. */
export async function respondToAll(
  approvalIds: readonly string[],
  decision: 'allow' | 'deny'
): Promise<void> {
  for (const approvalId of approvalIds) {
    await respondToApproval(approvalId, decision, '')
    if (useApprovals.getState().state.error) return
  }
}

/** Closes the dialog so the person can read the transcript; the review bar brings it back. */
export function startReview(): void {
  dispatch({ type: 'review-started' })
}

export function endReview(): void {
  dispatch({ type: 'review-ended' })
}
