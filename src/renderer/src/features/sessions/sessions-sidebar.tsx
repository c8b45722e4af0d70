import { useState, type JSX, type ReactNode } from 'react'
import { baseName, ltrPath } from '../../lib/format'
import { FolderIcon, GearIcon, PlusIcon } from '../../lib/icons'
import { useNow } from '../../lib/use-now'
import { openSettings, settingsWanted } from '../../app/app-store'
import { navigateHome } from '../../app/navigation'
import { SessionRow } from './session-row'
import { SessionSearch } from './session-search'
import { visibleSessions } from './sessions-reducer'
import { createSession, useSessions } from './sessions-store'
import { NewSessionMenu } from './new-session-menu'
import { FolderTrustChip } from '../trust'
import './sessions.css'

/** The project's left column: which folder, its sessions, and the way to settings. */
export function SessionsSidebar({
  rowBadge
}: {
  /**
   * The mark before a session's title, from the features above this one (notifications' dot of a
   * waiting approval): the list shows it without knowing what it means.
   */
  rowBadge: (sessionId: string) => ReactNode
}): JSX.Element {
  const state = useSessions((s) => s.state)
  const now = useNow(30_000)
  const folder = state.workspace ?? state.folder ?? ''
  const [actionError, setActionError] = useState<string | null>(null)
  const shown = visibleSessions(state)
  const searching = state.query.trim() !== ''

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar__project" title={folder}>
        <FolderIcon className="sidebar__project-icon" />
        <div className="sidebar__project-text">
          <div className="sidebar__project-name" data-testid="project-name">
            {baseName(folder)}
          </div>
          <div className="sidebar__project-path mono" data-testid="project-path">
            {ltrPath(folder)}
          </div>
          <FolderTrustChip />
        </div>
      </div>

      <div className="sidebar__actions">
        <button
          type="button"
          className="sidebar__new"
          data-testid="new-session-button"
          onClick={() => void createSession()}
          disabled={state.status !== 'ready' || state.creating}
        >
          <PlusIcon /> New session
        </button>
        <NewSessionMenu disabled={state.status !== 'ready' || state.creating} />
      </div>
      <SessionSearch />
      {(actionError ?? (state.status === 'ready' && state.error)) && (
        <p className="sidebar__error" role="alert">
          {actionError ?? state.error}
        </p>
      )}
      {searching && state.hits !== null && shown.length === 0 && (
        <p className="sidebar__empty" data-testid="session-search-empty">
          No session mentions “{state.query.trim()}”.
        </p>
      )}

      <ul className="session-list" aria-label="Sessions in this folder">
        {shown.map(({ session, snippet }) => (
          <SessionRow
            key={session.id}
            session={session}
            active={session.id === state.selectedId}
            now={now}
            snippet={snippet}
            query={state.query}
            onError={setActionError}
            badge={rowBadge(session.id)}
          />
        ))}
      </ul>

      <div className="sidebar__footer">
        <button type="button" className="sidebar__footer-button" onClick={navigateHome}>
          <FolderIcon /> Open another folder
        </button>
        <button
          type="button"
          className="sidebar__footer-button"
          data-testid="settings-button"
          onClick={openSettings}
          onPointerEnter={settingsWanted}
          onFocus={settingsWanted}
        >
          <GearIcon /> Settings
        </button>
      </div>
    </nav>
  )
}
