import { useState, type JSX, type KeyboardEvent, type ReactNode } from 'react'
import type { SessionSummary } from '../../../../shared/domain'
import { formatBytes, formatRelative } from '../../lib/format'
import { ChatIcon } from '../../lib/icons'
import { deleteSession, renameSession } from './session-actions'
import { selectSession } from './sessions-store'
import { findInText, landOnHit } from '../find'
import { PencilIcon, TrashIcon } from '../../lib/icons'
import { SessionTotalsLine } from '../meters'
import { Check } from '../../ui/check'
import { IconButton } from '../../ui/icon-button'

interface Props {
  session: SessionSummary
  active: boolean
  now: number
  /** Words around a search match, shown under the title while searching. */
  snippet: string | null
  /** The search's words, marked in the snippet. */
  query?: string
  onError: (message: string | null) => void
  /** What the window marks the title with (the dot of a waiting approval). */
  badge?: ReactNode
}

/** One session in the list: select it, rename it in place, or delete it after a confirmation. */
export function SessionRow({
  session,
  active,
  now,
  snippet,
  query,
  onError,
  badge
}: Props): JSX.Element {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view')
  const [title, setTitle] = useState(session.title)
  const [withCheckpoints, setWithCheckpoints] = useState(false)
  const shown = session.title || 'New session'

  const saveTitle = async (): Promise<void> => {
    const next = title.trim()
    setMode('view')
    if (!next || next === session.title) return
    onError(await renameSession(session.id, next))
  }
  const onKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') void saveTitle()
    if (event.key === 'Escape') setMode('view')
  }

  if (mode === 'rename') {
    return (
      <li className="session-row" data-active={active ? 'true' : 'false'}>
        <input
          className="session-row__rename"
          data-testid="session-rename-input"
          aria-label="Session title"
          value={title}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => setTitle(event.target.value)}
          onKeyDown={onKey}
          onBlur={() => void saveTitle()}
        />
      </li>
    )
  }

  if (mode === 'confirm-delete') {
    return (
      <li className="session-row session-row--confirm" data-testid="session-delete-confirm">
        <span className="session-row__confirm-text">Delete “{shown}”?</span>
        <button
          type="button"
          className="session-row__confirm session-row__confirm--danger"
          data-testid="session-delete-yes"
          onClick={() => {
            setMode('view')
            void deleteSession(session.id, withCheckpoints).then(onError)
          }}
        >
          Delete
        </button>
        <button
          type="button"
          className="session-row__confirm"
          autoFocus
          onClick={() => setMode('view')}
        >
          Keep
        </button>
        <Check
          className="session-row__confirm-option"
          testId="session-delete-checkpoints"
          checked={withCheckpoints}
          onChange={setWithCheckpoints}
        >
          Also delete the checkpoints of its changes
        </Check>
      </li>
    )
  }

  const size = session.sizeBytes ? formatBytes(session.sizeBytes) : null
  return (
    <li className="session-row" data-active={active ? 'true' : 'false'}>
      <button
        type="button"
        className="session-item"
        data-testid="session-item"
        data-active={active ? 'true' : 'false'}
        aria-current={active ? 'page' : undefined}
        onClick={() => {
          // From a search result: the session opens at its first mention of the words.
          if (snippet && query) landOnHit(session.id, query)
          selectSession(session.id)
        }}
        onDoubleClick={() => {
          setTitle(session.title)
          setMode('rename')
        }}
        title={session.title}
      >
        <ChatIcon className="session-item__icon" />
        <span className="session-item__text">
          <span className="session-item__title">
            {badge}
            {shown}
          </span>
          <span className="session-item__meta" data-testid="session-meta">
            {session.running ? (
              <span className="session-item__running" aria-label="Working">
                <span className="spinner-dot" /> Working
              </span>
            ) : (
              <>
                {formatRelative(session.updatedAt, now)}
                {size && <> · {size}</>}
                <SessionTotalsLine totals={session.totals} />
              </>
            )}
          </span>
          {snippet && (
            <span className="session-item__snippet" data-testid="session-snippet">
              {marked(snippet, query ?? '')}
            </span>
          )}
        </span>
      </button>
      <span className="session-row__actions">
        <IconButton
          className="session-row__action"
          data-testid="session-rename"
          label={`Rename “${shown}”`}
          title="Rename"
          onClick={() => {
            setTitle(session.title)
            setMode('rename')
          }}
          icon={<PencilIcon size={14} />}
        />
        <IconButton
          className="session-row__action"
          data-testid="session-delete"
          label={`Delete “${shown}”`}
          title={session.running ? 'Stop the turn before deleting' : 'Delete'}
          disabled={session.running}
          onClick={() => setMode('confirm-delete')}
          icon={<TrashIcon size={14} />}
        />
      </span>
    </li>
  )
}

/** The snippet with each (case-insensitive) occurrence of the query marked. */
function marked(snippet: string, query: string): JSX.Element[] {
  const needle = query.trim()
  if (!needle) return [<span key={0}>{snippet}</span>]
  const parts: JSX.Element[] = []
  let from = 0
  // Folded without changing lengths, so a mark never lands beside its word (see fold-case).
  for (const at of findInText(snippet, needle)) {
    if (at > from) parts.push(<span key={parts.length}>{snippet.slice(from, at)}</span>)
    parts.push(<mark key={parts.length}>{snippet.slice(at, at + needle.length)}</mark>)
    from = at + needle.length
  }
  if (from < snippet.length) parts.push(<span key={parts.length}>{snippet.slice(from)}</span>)
  return parts
}
