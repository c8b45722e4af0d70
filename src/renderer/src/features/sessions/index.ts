// The sessions feature as the rest of the window sees it: the open project and its sessions.
// Other features read them through these hooks and getters, follow them through the two events,
// and change them only through these actions.
export { ForkButton } from './fork-button'
export { ReplayBar } from './replay-bar'
export { useReplayed } from './replay-store'
export { SessionMenu } from './session-menu'
export { SessionsSidebar } from './sessions-sidebar'
export {
  addSession,
  applySessionUpdate,
  createSession,
  onPendingApprovals,
  openProject,
  refreshSessions,
  retryOpenProject,
  selectSession
} from './sessions-store'
export {
  currentSession,
  currentSessionId,
  currentWorkspace,
  onSessionSelected,
  onWorkspaceOpened,
  sessionTitle,
  sessionWorkspace,
  useProjectError,
  useProjectFolder,
  useProjectStatus,
  useSelectedSession,
  useSelectedSessionId,
  useSessionList,
  useWorkspace
} from './sessions-reads'
