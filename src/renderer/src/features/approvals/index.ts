// The approvals feature as the rest of the window sees it: the modal that asks the person, the
// actions that feed and answer it, and what others read of the waiting requests.
export { ApprovalModal } from './approval-modal'
export {
  approvalRequested,
  approvalResolved,
  respondToApproval,
  restoreApprovals,
  useAwaitingApproval
} from './approvals-store'
export { capabilityBadges } from './describe-approval'
export { useVisibleApprovals } from './use-visible-approvals'
