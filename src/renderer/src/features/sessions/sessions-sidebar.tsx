import type { JSX } from 'react'
import { baseName, formatRelative, ltrPath } from '../../lib/format'
import { ChatIcon, FolderIcon, GearIcon, PlusIcon } from '../../lib/icons'
import { useNow } from '../../lib/use-now'
import { openSettings } from '../../shell/app-store'
import { navigateHome } from '../../shell/navigation'
import { createSession, selectSession, useSessions } from './sessions-store'
import './sessions.css'

/** The project's left column: which folder, its sessions, and the way to settings. */
export function SessionsSidebar(): JSX.Element {
  const state = useSessions((s) => s.state)
  const now = useNow(30_000)
  const folder = state.workspace ?? state.folder ?? ''

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
      </div>
      {state.error && state.status === 'ready' && (
        <p className="sidebar__error" role="alert">
          {state.error}
        </p>
      )}

      <ul className="session-list" aria-label="Sessions in this folder">
        {state.sessions.map((session) => {
          const active = session.id === state.selectedId
          return (
            <li key={session.id}>
              <button
                type="button"
                className="session-item"
                data-testid="session-item"
                data-active={active ? 'true' : 'false'}
                aria-current={active ? 'page' : undefined}
                onClick={() => selectSession(session.id)}
                title={session.title}
              >
                <ChatIcon className="session-item__icon" />
                <span className="session-item__title">{session.title || 'New session'}</span>
                <span className="session-item__meta">
                  {session.running ? (
                    <span className="session-item__running" aria-label="Working">
                      <span className="spinner-dot" />
                    </span>
                  ) : (
                    formatRelative(session.updatedAt, now)
                  )}
                </span>
              </button>
            </li>
          )
        })}
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
        >
          <GearIcon /> Settings
        </button>
      </div>
    </nav>
  )
}
