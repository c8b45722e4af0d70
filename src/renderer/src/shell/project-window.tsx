import { useEffect, type JSX } from 'react'
import { ApprovalModal } from '../features/approvals/approval-modal'
import { ChatView } from '../features/chat/chat-view'
import { McpTrustPrompt } from '../features/mcp/mcp-trust-prompt'
import { loadModels } from '../features/chat/chat-store'
import { SessionsSidebar } from '../features/sessions/sessions-sidebar'
import { TodoPanel } from '../features/todo/todo-panel'
import { JobMonitor } from '../features/jobs/job-monitor'
import { TrustDialog } from '../features/trust/trust-dialog'
import { RestoreDialog } from '../features/checkpoints/restore-dialog'
import { openProject, retryOpenProject, useSessions } from '../features/sessions/sessions-store'
import { baseName } from '../lib/format'
import { AlertIcon } from '../lib/icons'
import { navigateHome } from './navigation'

/**
 * One project folder: sessions on the left, the selected conversation in the middle, and the
 * model's plan (once it makes one) on the right.
 */
export function ProjectWindow({
  folder,
  session
}: {
  folder: string
  session: string | null
}): JSX.Element {
  const status = useSessions((s) => s.state.status)
  const error = useSessions((s) => s.state.error)

  useEffect(() => {
    document.title = `${baseName(folder)} — Mecatl`
    void openProject(folder, session)
    void loadModels()
  }, [folder, session])

  return (
    <div className="project">
      <SessionsSidebar />
      <main className="project__main">
        {status === 'ready' && (
          <div className="project__body">
            <ChatView />
            <TodoPanel />
            <JobMonitor />
          </div>
        )}
        {status === 'opening' && (
          <div className="project__placeholder" aria-busy="true">
            <span className="spinner-dot" /> Opening {baseName(folder)}…
          </div>
        )}
        {status === 'error' && (
          <div className="project__placeholder">
            <div className="open-error" role="alert" data-testid="project-error">
              <AlertIcon size={20} />
              <h2>This folder could not be opened</h2>
              <p className="mono">{folder}</p>
              <p>{error}</p>
              <div className="open-error__actions">
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => void retryOpenProject(session)}
                >
                  Try again
                </button>
                <button type="button" className="button" onClick={navigateHome}>
                  Open another folder
                </button>
              </div>
            </div>
          </div>
        )}
      </main>
      <ApprovalModal />
      <TrustDialog />
      <RestoreDialog />
      {status === 'ready' && <McpTrustPrompt />}
    </div>
  )
}
