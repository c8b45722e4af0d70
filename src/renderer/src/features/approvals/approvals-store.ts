import type { ApprovalRequest } from '../../../../shared/domain'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { approvalsReducer, initialApprovalsState } from './approvals-reducer'

export const useApprovals = createReducerStore(approvalsReducer, initialApprovalsState)

const dispatch = useApprovals.getState().dispatch

export function restoreApprovals(sessionId: string, pending: ApprovalRequest[]): void {
  dispatch({ type: 'restored', sessionId, pending })
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
    if (!ok) dispatch({ type: 'resolved', approvalId })
  } catch (error) {
    dispatch({ type: 'respond-failed', approvalId, error: errorMessage(error) })
  }
}
