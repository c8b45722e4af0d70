import type { SessionSummary } from '../../../../shared/domain'
import { selectedSession, type SessionsState } from './sessions-reducer'
import { useSessions } from './sessions-store'

// What other features read of the open project and its sessions: hooks for components, getters
// for code outside React, and the two changes others follow. The store itself stays inside, so
// only this feature's actions change it.

/** The project folder as `workspace.open` canonicalised it; null until it is open. */
export function useWorkspace(): string | null {
  return useSessions((s) => s.state.workspace)
}

/** The folder to name to the person: the canonical one once open, the requested one before. */
export function useProjectFolder(): string {
  return useSessions((s) => s.state.workspace ?? s.state.folder ?? '')
}

/** Whether the project is opening, open, or could not be opened. */
export function useProjectStatus(): SessionsState['status'] {
  return useSessions((s) => s.state.status)
}

/** Why the project could not be opened or a session not made; null when nothing failed. */
export function useProjectError(): string | null {
  return useSessions((s) => s.state.error)
}

/** The project's sessions, most recently active first. */
export function useSessionList(): SessionSummary[] {
  return useSessions((s) => s.state.sessions)
}

export function useSelectedSessionId(): string | null {
  return useSessions((s) => s.state.selectedId)
}

export function useSelectedSession(): SessionSummary | null {
  return useSessions((s) => selectedSession(s.state))
}

/** The open project's folder, for code outside React; null until it is open. */
export function currentWorkspace(): string | null {
  return useSessions.getState().state.workspace
}

/** The selected session's id, for code outside React. */
export function currentSessionId(): string | null {
  return useSessions.getState().state.selectedId
}

/** The selected session, for code outside React. */
export function currentSession(): SessionSummary | null {
  return selectedSession(useSessions.getState().state)
}

/** A session's title while the project is open, for what is said about it (a notice). */
export function sessionTitle(sessionId: string): string | null {
  const { sessions, status } = useSessions.getState().state
  if (status !== 'ready') return null
  return sessions.find((s) => s.id === sessionId)?.title ?? null
}

/** The project folder a session works in. */
export function sessionWorkspace(sessionId: string): string | null {
  const { sessions, workspace } = useSessions.getState().state
  return sessions.find((s) => s.id === sessionId)?.workspace ?? workspace
}

/** Calls `listener` with each project folder as it opens; returns the unsubscribe. */
export function onWorkspaceOpened(listener: (workspace: string) => void): () => void {
  return useSessions.subscribe((store, previous) => {
    const workspace = store.state.workspace
    if (workspace && workspace !== previous.state.workspace) listener(workspace)
  })
}

/** Calls `listener` with each session as it is selected; returns the unsubscribe. */
export function onSessionSelected(listener: (sessionId: string) => void): () => void {
  return useSessions.subscribe((store, previous) => {
    const id = store.state.selectedId
    if (id && id !== previous.state.selectedId) listener(id)
  })
}
