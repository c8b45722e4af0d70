import { useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import { openSettings } from '../../app/app-store'
import { toggleSidebar } from '../../app/layout-store'
import { Dialog } from '../../ui/dialog'
import { openFind } from '../find'
import { toggleMonitor, useMonitorOpen } from '../jobs'
import { togglePlanning } from '../safety'
import {
  createSession,
  selectSession,
  useProjectStatus,
  useSelectedSession,
  useSelectedSessionId,
  useSessionList
} from '../sessions'
import { leaveSettingsThen } from '../settings'
import { closePalette, openShortcuts, paletteFailed, useKeys } from './keys-store'
import { filterPalette } from './palette-filter'
import { currentPlatform, shortcutLabel, type ShortcutId } from './shortcut-match'
import './shortcuts.css'

interface Action {
  id: string
  label: string
  /** Its own shortcut, shown beside it. */
  shortcut?: ShortcutId
  /** Runs it; an action that can fail resolves with what went wrong, or null. */
  run: () => void | Promise<string | null>
  /** It can be done over Settings; every other action leaves them first (asking if unsaved). */
  overSettings?: true
}

/** What the palette offers: the window's actions, then every session of the folder by title. */
function useActions(): Action[] {
  const status = useProjectStatus()
  const sessions = useSessionList()
  const current = useSelectedSession()
  const selectedId = useSelectedSessionId()
  const jobsOpen = useMonitorOpen()
  return useMemo(() => {
    const inProject = status === 'ready'
    const actions: Action[] = []
    if (inProject) {
      actions.push({
        id: 'new',
        label: 'New session',
        shortcut: 'new-session',
        run: () => void createSession()
      })
    }
    actions.push({
      id: 'settings',
      label: 'Open settings',
      shortcut: 'settings',
      run: openSettings,
      overSettings: true
    })
    if (inProject && current) {
      actions.push({
        id: 'planning',
        label: current.planning ? 'Turn planning mode off' : 'Turn planning mode on',
        run: () => togglePlanning()
      })
    }
    if (inProject) {
      actions.push(
        {
          id: 'jobs',
          label: jobsOpen ? 'Close the job monitor' : 'Open jobs',
          run: toggleMonitor
        },
        { id: 'find', label: 'Find in the conversation', shortcut: 'find', run: openFind },
        {
          id: 'sidebar',
          label: 'Show or hide the sidebar',
          shortcut: 'sidebar',
          run: toggleSidebar,
          overSettings: true
        }
      )
    }
    actions.push({
      id: 'shortcuts',
      label: 'Show keyboard shortcuts',
      run: () => openShortcuts(),
      overSettings: true
    })
    for (const session of inProject ? sessions : []) {
      if (session.id === selectedId) continue
      actions.push({
        id: `session:${session.id}`,
        label: `Switch to: ${session.title || 'New session'}`,
        run: () => selectSession(session.id)
      })
    }
    return actions
  }, [status, sessions, current, selectedId, jobsOpen])
}

/** Ctrl/Cmd+K: a fuzzy list of the window's actions and sessions; Enter runs, Escape closes. */
export function CommandPalette(): JSX.Element | null {
  const open = useKeys((s) => s.paletteOpen)
  return open ? <PaletteDialog /> : null
}

function PaletteDialog(): JSX.Element {
  const input = useRef<HTMLInputElement>(null)
  const actions = useActions()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const platform = currentPlatform()
  const shown = filterPalette(actions, query)
  const selected = shown[Math.min(active, shown.length - 1)]

  const error = useKeys((s) => s.paletteError)
  const run = (action: Action): void => {
    closePalette()
    const go = (): void => {
      const result = action.run()
      if (result) void result.then((failure) => failure && paletteFailed(failure))
    }
    if (action.overSettings) go()
    else leaveSettingsThen(go)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.nativeEvent.isComposing) return
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (step !== 0 && shown.length > 0) {
      setActive((at) => (Math.min(at, shown.length - 1) + step + shown.length) % shown.length)
    } else if (event.key === 'Enter' && selected) {
      run(selected)
    } else {
      return
    }
    event.preventDefault()
  }

  return (
    <Dialog
      className="modal-dialog palette-dialog"
      label="Command palette"
      data-keys-dialog=""
      data-testid="command-palette"
      onClose={closePalette}
      closeOnBackdrop
      initialFocus={input}
    >
      <div className="modal palette">
        <input
          className="palette__input"
          data-testid="command-palette-input"
          placeholder="Type a command or a session’s title"
          aria-label="Command"
          role="combobox"
          aria-expanded="true"
          aria-controls="command-palette-list"
          aria-activedescendant={selected ? `command-${selected.id}` : undefined}
          ref={input}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
        />
        {error && (
          <p className="palette__error" role="alert" data-testid="command-palette-error">
            {error}
          </p>
        )}
        <ul
          id="command-palette-list"
          className="palette__list"
          role="listbox"
          aria-label="Commands"
        >
          {shown.map((action) => (
            <li
              key={action.id}
              id={`command-${action.id}`}
              role="option"
              aria-selected={action === selected}
              className={`palette__item${action === selected ? ' palette__item--active' : ''}`}
              data-testid="command-palette-item"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(action)}
            >
              <span className="palette__label">{action.label}</span>
              {action.shortcut && (
                <kbd className="palette__kbd">{shortcutLabel(action.shortcut, platform)}</kbd>
              )}
            </li>
          ))}
          {shown.length === 0 && (
            <li className="palette__empty" data-testid="command-palette-empty">
              Nothing matches “{query.trim()}”. Try fewer letters, or part of a session’s title.
            </li>
          )}
        </ul>
        <div className="palette__footer">↑↓ to choose · Enter to run · Esc to close</div>
      </div>
    </Dialog>
  )
}
