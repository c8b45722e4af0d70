import type { SessionProfile } from '../../../../shared/session-profile'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import type { SessionSummary } from '../../../../shared/domain'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { folderOpened } from '../trust'
import { initialSessionsState, sessionsReducer } from './sessions-reducer'

export const useSessions = createReducerStore(sessionsReducer, initialSessionsState)

const dispatch = useSessions.getState().dispatch
let opening: Promise<void> | null = null
let openingFolder: string | null = null

/**
 * Opens the project this window shows: registers the folder, lists its sessions and creates the
 * first one when there is none. Idempotent per folder, because React may run effects twice and a
 * second run must not create a second empty session.
 */
export function openProject(folder: string, requestedSession: string | null): Promise<void> {
  if (opening && openingFolder === folder) return opening
  openingFolder = folder
  opening = (async () => {
    dispatch({ type: 'open-started', folder })
    try {
      const { path, trust } = await call('workspace.open', { path: folder })
      // A folder opened for the first time is asked about before its first session is made.
      await folderOpened(path, trust)
      const { sessions, pendingApprovals } = await call('session.list', { workspace: path })
      restorePending(sessions, pendingApprovals)
      const list =
        sessions.length > 0 ? sessions : [await call('session.create', { workspace: path })]
      dispatch({ type: 'opened', workspace: path, sessions: list, selectedId: requestedSession })
    } catch (error) {
      dispatch({ type: 'open-failed', error: errorMessage(error) })
      // Let "Try again" run the whole sequence afresh.
      opening = null
    }
  })()
  return opening
}

export function retryOpenProject(requestedSession: string | null): Promise<void> {
  const folder = useSessions.getState().state.folder
  opening = null
  return folder ? openProject(folder, requestedSession) : Promise.resolve()
}

/** Starts a session; `no-fs` gives it no file, shell or delegation tools. */
export async function createSession(profile?: SessionProfile): Promise<void> {
  const { workspace, creating } = useSessions.getState().state
  if (!workspace || creating) return
  dispatch({ type: 'create-started' })
  try {
    const session = await call('session.create', profile ? { workspace, profile } : { workspace })
    dispatch({ type: 'created', session })
  } catch (error) {
    dispatch({ type: 'create-failed', error: errorMessage(error) })
  }
}

export function selectSession(sessionId: string): void {
  dispatch({ type: 'select', sessionId })
}

/** A session the core reports changed: renamed, its model or planning set, a turn run. */
export function applySessionUpdate(session: SessionSummary): void {
  dispatch({ type: 'session-updated', session })
}

/** Puts a session made elsewhere (the fork a rewind makes) in the list, selected. */
export function addSession(session: SessionSummary): void {
  dispatch({ type: 'created', session })
}

/** Re-reads the list after a reconnect: updates sent while we were away are gone. */
export async function refreshSessions(): Promise<void> {
  const { workspace, status } = useSessions.getState().state
  if (!workspace || status !== 'ready') return
  try {
    const { sessions, pendingApprovals } = await call('session.list', { workspace })
    restorePending(sessions, pendingApprovals)
    dispatch({ type: 'listed', sessions })
  } catch {
    // The banner already says the connection is unwell; the next event will catch us up.
  }
}

type PendingListener = (sessionId: string, pending: ApprovalRequest[]) => void
const pendingListeners = new Set<PendingListener>()

/**
 * Calls `listener` with each session's questions still waiting as the project opens (approvals
 * registers, so the modal shows them at once); returns the unsubscribe.
 */
export function onPendingApprovals(listener: PendingListener): () => void {
  pendingListeners.add(listener)
  return () => pendingListeners.delete(listener)
}

/** Questions still waiting in any session of the project, to those who show them. */
function restorePending(sessions: SessionSummary[], pending: ApprovalRequest[]): void {
  for (const session of sessions) {
    for (const listener of pendingListeners)
      listener(
        session.id,
        pending.filter((request) => request.sessionId === session.id)
      )
  }
}
