import { useEffect, type FormEvent, type JSX } from 'react'
import { baseName, formatRelative, ltrPath } from '../../lib/format'
import { FolderIcon, GearIcon, LogoMark } from '../../lib/icons'
import { useNow } from '../../lib/use-now'
import { openSettings, useApp } from '../../app/app-store'
import { loadRecent, openFolder, pickFolder, useWelcome } from './welcome-store'
import { Button } from '../../ui/button'
import './welcome.css'

/** The first screen without a project: open a folder by path, by dialog, or from recents. */
export function WelcomeScreen(): JSX.Element {
  const state = useWelcome((s) => s.state)
  const dispatch = useWelcome((s) => s.dispatch)
  const canPickFolder = useApp((s) => s.state.info?.canPickFolder ?? false)
  const now = useNow(60_000)

  useEffect(() => {
    void loadRecent()
  }, [])

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    void openFolder(state.path)
  }

  return (
    <div className="welcome">
      <header className="welcome__topbar">
        <Button tone="ghost" data-testid="settings-button" onClick={openSettings}>
          <GearIcon /> Settings
        </Button>
      </header>
      <main className="welcome__body">
        <div className="welcome__brand">
          <LogoMark size={40} />
          <div>
            <h1 className="welcome__title">Mecatl</h1>
            <p className="welcome__tagline">
              An AI agent that works in your project folder, and asks before it changes anything.
            </p>
          </div>
        </div>

        <section className="welcome__card" aria-labelledby="open-folder-heading">
          <h2 id="open-folder-heading" className="section-title">
            Open a project folder
          </h2>
          <form className="welcome__open" onSubmit={submit}>
            <input
              className={`input input--mono${state.error ? ' input--invalid' : ''}`}
              data-testid="folder-path-input"
              placeholder="/home/you/projects/my-app"
              value={state.path}
              onChange={(e) => dispatch({ type: 'path-changed', path: e.target.value })}
              aria-label="Folder path"
              aria-invalid={state.error ? true : undefined}
              aria-describedby={state.error ? 'folder-error' : undefined}
              autoFocus
              spellCheck={false}
            />
            <button
              type="submit"
              className="button button--primary"
              data-testid="open-folder-button"
              disabled={state.opening}
            >
              {state.opening ? 'Opening…' : 'Open'}
            </button>
            {canPickFolder && (
              <button
                type="button"
                className="button"
                data-testid="browse-folder-button"
                onClick={() => void pickFolder()}
                disabled={state.opening}
              >
                Browse…
              </button>
            )}
          </form>
          {state.error && (
            <p className="field-error" id="folder-error" role="alert" data-testid="folder-error">
              {state.error}
            </p>
          )}
          {state.openElsewhere && (
            <p className="welcome__notice" role="status" data-testid="folder-open-elsewhere">
              <span className="mono">{state.openElsewhere}</span> is already open in another window;
              Mecatl brought that window to the front.
            </p>
          )}
        </section>

        <section className="welcome__recent" aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="section-title">
            Recent
          </h2>
          {state.recentStatus === 'ready' && state.recent.length === 0 && (
            <p className="muted">Folders you open will be listed here.</p>
          )}
          {state.recentStatus === 'error' && (
            <p className="muted">The list of recent folders could not be read.</p>
          )}
          <ul className="recent-list">
            {state.recent.map((folder) => (
              <li key={folder.path}>
                <button
                  type="button"
                  className="recent-list__item"
                  data-testid="recent-folder"
                  onClick={() => void openFolder(folder.path)}
                  title={folder.path}
                >
                  <FolderIcon className="recent-list__icon" />
                  <span className="recent-list__name">{baseName(folder.path)}</span>
                  <span className="recent-list__path mono">{ltrPath(folder.path)}</span>
                  <span className="recent-list__when">{formatRelative(folder.openedAt, now)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </div>
  )
}
