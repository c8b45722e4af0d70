import type { JSX } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import { RewindIcon } from '../../lib/icons'
import { describeRestore } from './change-words'
import { openRestore } from './restore-store'
import './checkpoints.css'

type RestoreItem = Extract<TranscriptItem, { kind: 'restore' }>

/** A restore in the transcript: what was put back, and Undo restore. */
export function RestoreDivider({
  item,
  sessionId
}: {
  item: RestoreItem
  sessionId: string | null
}): JSX.Element {
  const files = item.changes.map((c) => c.path)
  return (
    <div className="restore-divider" data-testid="restore-divider" role="note">
      <RewindIcon size={14} />
      <span className="restore-divider__text">
        {item.label}
        <span className="muted" title={files.join('\n')}>
          {' '}
          · {describeRestore(item.changes)}
        </span>
      </span>
      {sessionId && (
        <button
          type="button"
          className="button button--small"
          data-testid="restore-undo"
          onClick={() =>
            // Only what the restore changed goes back: the rest of the folder stays as it is.
            void openRestore({
              kind: 'undo',
              sessionId,
              checkpoint: item.undo,
              files,
              label: item.label
            })
          }
        >
          Undo restore
        </button>
      )}
    </div>
  )
}
