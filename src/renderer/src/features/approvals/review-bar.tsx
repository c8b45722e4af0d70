import type { JSX } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { ShieldIcon } from '../../lib/icons'
import { endReview } from './approvals-store'

/**
 * Stands in for the approval dialog while the person reads the transcript: the calls still
 * wait (the sessions list keeps its dot), and one press brings the dialog back.
 */
export function ReviewBar({ waiting }: { waiting: readonly ApprovalRequest[] }): JSX.Element {
  const tools = [...new Set(waiting.map((r) => r.tool))].join(', ')
  return (
    <div
      className="approval-review-bar"
      role="region"
      aria-label="Waiting approvals"
      data-testid="approval-review-bar"
    >
      <ShieldIcon size={15} />
      <span className="approval-review-bar__text">
        {waiting.length === 1 ? '1 call waits' : `${waiting.length} calls wait`} for your answer (
        <span className="mono">{tools}</span>)
      </span>
      <button
        type="button"
        className="button button--primary button--small"
        data-testid="approval-review-return"
        onClick={endReview}
      >
        Back to approval
      </button>
    </div>
  )
}
