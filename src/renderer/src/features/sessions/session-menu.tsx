import { useEffect, useRef, useState, type JSX } from 'react'
import type { SessionSummary } from '../../../../shared/domain'
import { downloadSession } from './session-actions'
import { useReplay } from './replay-store'
import { MenuItem } from '../../ui/menu-item'

/** What Export offers, in the menu's order. */
const formats = [
  { format: 'md', label: 'Markdown (.md)', what: 'the conversation, to read or share' },
  { format: 'jsonl', label: 'Events (.jsonl)', what: 'every event, as run --json prints them' }
] as const

interface Props {
  session: SessionSummary | null
  /** Items in the transcript, for replay's step count. */
  total: number
  running: boolean
}

/** The chat header's Replay and Export buttons for a recorded session. */
export function SessionMenu({ session, total, running }: Props): JSX.Element | null {
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const replaying = useReplay((s) => s.state.sessionId !== null)
  const dispatch = useReplay((s) => s.dispatch)
  const menu = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const close = (event: MouseEvent): void => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false)
    }
    window.addEventListener('mousedown', close)
    return () => window.removeEventListener('mousedown', close)
  }, [open])

  if (!session || total === 0) return null
  const exportAs = (format: 'jsonl' | 'md'): void => {
    setOpen(false)
    void downloadSession(session.id, format).then(setError)
  }
  return (
    <div className="session-menu" ref={menu}>
      <button
        type="button"
        className="session-menu__button"
        data-testid="replay-button"
        disabled={running || replaying}
        title={running ? 'Replay is for a finished turn' : 'Show this session again step by step'}
        onClick={() => dispatch({ type: 'start', sessionId: session.id, total })}
      >
        Replay
      </button>
      <button
        type="button"
        className="session-menu__button"
        data-testid="export-button"
        aria-expanded={open}
        title={error ?? 'Save this session as a file'}
        onClick={() => setOpen((v) => !v)}
      >
        Export
      </button>
      {open && (
        <div className="session-menu__popover" role="menu">
          {formats.map(({ format, label, what }) => (
            <MenuItem
              key={format}
              data-testid={`export-${format}`}
              onClick={() => exportAs(format)}
            >
              {label}
              <span>{what}</span>
            </MenuItem>
          ))}
        </div>
      )}
    </div>
  )
}
