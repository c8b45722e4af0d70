import { onReconnect, subscribe } from '../bridge/client'
import { approvalRequested, approvalResolved, restoreApprovals } from '../features/approvals'
import { applyChatEvent, loadModels, loadSession, reloadShownSession } from '../features/chat'
import { applyJobEvent, reloadJobs, wireJobs } from '../features/jobs'
import {
  applySessionUpdate,
  onPendingApprovals,
  onSessionSelected,
  refreshSessions
} from '../features/sessions'
import { setPlan } from '../features/todo'
import { wireSkills } from '../features/skills'
import { rememberSession } from '../app/navigation'
import { setSettingsPreloader } from '../app/app-store'
import { SettingsScreen } from '../features/settings-screen'

let wired = false

/**
 * Connects the bridge to the stores, once per page: every event goes to the stores that
 * care, a new selection loads its transcript, and a reconnect re-reads what may have been missed.
 */
export function wireStores(): void {
  if (wired) return
  wired = true
  wireJobs()
  wireSkills()
  // Settings load on first use; a pointer on their button starts that a moment before the click.
  setSettingsPreloader(() => void SettingsScreen.load())
  onPendingApprovals(restoreApprovals)

  subscribe((event) => {
    if (applyJobEvent(event)) return
    // A finished turn grew its session's recorded size, which only the list reports.
    if (event.event === 'turn.completed' || event.event === 'turn.failed') void refreshSessions()
    switch (event.event) {
      case 'session.updated':
        applySessionUpdate(event.payload)
        applyChatEvent(event)
        return
      case 'approval.requested':
        approvalRequested(event.payload)
        return
      case 'approval.resolved':
        approvalResolved(event.payload.approvalId)
        return
      case 'todo.updated':
        setPlan(event.payload.sessionId, event.payload.items)
        return
      default:
        applyChatEvent(event)
    }
  })

  onSessionSelected((id) => {
    rememberSession(id)
    void loadSession(id)
  })

  onReconnect(() => {
    void refreshSessions()
    void loadModels()
    reloadJobs()
    reloadShownSession()
  })
}
