import { onReconnect, subscribe } from '../bridge/client'
import { useApprovals } from '../features/approvals/approvals-store'
import { applyChatEvent, loadModels, loadSession, useChat } from '../features/chat/chat-store'
import { applyJobEvent, reloadJobs, wireJobs } from '../features/jobs/jobs-store'
import { refreshSessions, useSessions } from '../features/sessions/sessions-store'
import { useTodos } from '../features/todo/todo-store'
import { wireSkills } from '../features/skills/skills-store'
import { rememberSession } from './navigation'

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

  subscribe((event) => {
    if (applyJobEvent(event)) return
    // A finished turn grew its session's recorded size, which only the list reports.
    if (event.event === 'turn.completed' || event.event === 'turn.failed') void refreshSessions()
    switch (event.event) {
      case 'session.updated':
        useSessions.getState().dispatch({ type: 'session-updated', session: event.payload })
        applyChatEvent(event)
        return
      case 'approval.requested':
        useApprovals.getState().dispatch({ type: 'requested', request: event.payload })
        return
      case 'approval.resolved':
        useApprovals.getState().dispatch({ type: 'resolved', approvalId: event.payload.approvalId })
        return
      case 'todo.updated':
        useTodos.getState().dispatch({ type: 'updated', ...event.payload })
        return
      case 'branch.selected': {
        // Another window showed another version of a message: show the same conversation. This
        // window's own choice is already being reloaded (the view is loading then).
        const { sessionId, status } = useChat.getState().state
        if (sessionId === event.payload.sessionId && status === 'ready') {
          void loadSession(sessionId, true)
        }
        return
      }
      default:
        applyChatEvent(event)
    }
  })

  useSessions.subscribe((store, previous) => {
    const id = store.state.selectedId
    if (!id || id === previous.state.selectedId) return
    rememberSession(id)
    void loadSession(id)
  })

  onReconnect(() => {
    void refreshSessions()
    void loadModels()
    reloadJobs()
    const { sessionId } = useChat.getState().state
    if (sessionId) void loadSession(sessionId, true)
  })
}
