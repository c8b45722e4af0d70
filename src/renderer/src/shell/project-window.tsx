import { useEffect, useLayoutEffect, type JSX } from 'react'
import { ApprovalModal } from '../features/approvals'
import { ChatView, loadModels, useShownSessionId } from '../features/chat'
import { ApprovalDot } from '../features/notifications'
import { ElicitationDialog, McpSignInNotice, McpTrustPrompt } from '../features/mcp'
import {
  openProject,
  retryOpenProject,
  SessionsSidebar,
  useProjectError,
  useProjectStatus,
  useSelectedSessionId
} from '../features/sessions'
import { foldPlan, TodoPanel, useHasPlan, usePlanFolded } from '../features/todo'
import { JobMonitor, useMonitorOpen } from '../features/jobs'
import { TrustDialog } from '../features/trust'
import { RestoreDialog } from '../features/checkpoints'
import { baseName } from '../lib/format'
import { AlertIcon } from '../lib/icons'
import { navigateHome } from '../app/navigation'
import { useApp } from '../app/app-store'
import { layoutFor, planWouldFloat, type Layout } from '../app/layout-model'
import { bringPanelToFront, dismissSidebar, useLayout, useWindowWidth } from '../app/layout-store'
import { PanelDock } from './panel-dock'
import { useOverlayEscape } from './overlay-dismiss'
import './layout.css'

/** Where the columns go now: the window's width, what is open, the person's sidebar choice. */
function useWindowLayout(): Layout {
  const width = useWindowWidth()
  const sidebar = useLayout((s) => s.sidebar)
  const sessionId = useShownSessionId()
  const hasPlan = useHasPlan(sessionId)
  const folded = usePlanFolded()
  const jobs = useMonitorOpen()
  const plan = !hasPlan ? 'none' : folded ? 'rail' : 'open'
  const layout = layoutFor({ width, sidebar, plan, jobs })
  // A plan that appears where it would float starts folded, before it is painted over the reply.
  const floats = planWouldFloat({ width, sidebar, plan, jobs })
  useLayoutEffect(() => {
    if (hasPlan && floats) foldPlan()
    // Only a plan appearing (or another session's shown) folds it, not a later resize or click.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasPlan, sessionId])
  // The panel that has just opened comes to the front of a shared column.
  const planOpen = plan === 'open'
  useEffect(() => {
    if (planOpen) bringPanelToFront('plan')
  }, [planOpen])
  useEffect(() => {
    if (jobs) bringPanelToFront('jobs')
  }, [jobs])
  return layout
}

/** The plan and the job monitor, each beside the chat or sharing one column (see PanelDock). */
function SidePanels({ layout }: { layout: Layout }): JSX.Element {
  const front = useLayout((s) => s.front)
  const sessionId = useShownSessionId()
  if (layout.panels === 'beside') {
    return (
      <>
        <TodoPanel sessionId={sessionId} />
        <JobMonitor />
      </>
    )
  }
  return (
    <>
      {/* The folded plan's rail is narrow enough to stay beside the chat. */}
      {!layout.open.includes('plan') && <TodoPanel sessionId={sessionId} />}
      <PanelDock place={layout.panels} open={layout.open} front={front} width={layout.dockWidth} />
      {!layout.open.includes('jobs') && <JobMonitor />}
    </>
  )
}

/**
 * One project folder: sessions on the left, the selected conversation in the middle, and the
 * model's plan (once it makes one) and the job monitor on the right. The chat column keeps its
 * width: the sidebar hides and the panels share a column or float when the window is narrow.
 */
export function ProjectWindow({
  folder,
  session
}: {
  folder: string
  session: string | null
}): JSX.Element {
  const status = useProjectStatus()
  const error = useProjectError()
  const selectedId = useSelectedSessionId()
  const layout = useWindowLayout()
  const overlaid = layout.sidebar === 'overlay'
  useOverlayEscape(layout)

  // A session or Settings picked in a sidebar shown over the chat: the person wants that now
  // (and the sidebar would lie over the settings screen).
  const settingsOpen = useApp((s) => s.state.settingsOpen)
  useEffect(() => {
    if (useLayout.getState().sidebar === 'shown' && overlaid) dismissSidebar()
    // Only a change of session or opening Settings closes it, not the layout changing under it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedId, settingsOpen])

  useEffect(() => {
    document.title = `${baseName(folder)} — Mecatl`
    void openProject(folder, session)
    void loadModels()
  }, [folder, session])

  return (
    <div className="project" data-sidebar={layout.sidebar} data-panels={layout.panels}>
      <div
        className={`project__sidebar project__sidebar--${layout.sidebar}`}
        id="project-sidebar"
        hidden={layout.sidebar === 'hidden'}
        data-testid="sidebar"
      >
        <SessionsSidebar rowBadge={(sessionId) => <ApprovalDot sessionId={sessionId} />} />
      </div>
      {overlaid && (
        <button
          type="button"
          className="project__scrim"
          aria-label="Hide the sidebar"
          onClick={dismissSidebar}
        />
      )}
      <main className="project__main">
        {status === 'ready' && (
          <div className="project__body">
            <ChatView />
            <SidePanels layout={layout} />
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
      {status === 'ready' && <McpSignInNotice />}
      {status === 'ready' && <ElicitationDialog />}
    </div>
  )
}
