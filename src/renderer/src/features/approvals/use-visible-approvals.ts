import { useMemo } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { useSelectedSessionId, useSessionList } from '../sessions'
import { visibleApprovals } from './approvals-reducer'
import { useApprovals } from './approvals-store'

/** Approval requests for this window's project, oldest first. */
export function useVisibleApprovals(): ApprovalRequest[] {
  const approvals = useApprovals((s) => s.state)
  const sessions = useSessionList()
  const selectedId = useSelectedSessionId()
  return useMemo(() => {
    const ids = new Set(sessions.map((s) => s.id))
    if (selectedId) ids.add(selectedId)
    return visibleApprovals(approvals, ids)
  }, [approvals, sessions, selectedId])
}
