import { useState, type JSX } from 'react'
import { BranchIcon } from '../../lib/icons'
import { forkSession } from './session-actions'

interface Props {
  sessionId: string
  /** The message's transcript key: the new session holds everything up to it. */
  itemKey: string
  disabled?: boolean
}

/** "Fork from here": a new session with the conversation up to this message, selected. */
export function ForkButton({ sessionId, itemKey, disabled }: Props): JSX.Element {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className="fork-button"
      data-testid="fork-button"
      title={error ?? 'Fork: a new session with the conversation up to here'}
      aria-label="Fork a new session from this message"
      disabled={disabled || busy}
      onClick={() => {
        setBusy(true)
        void forkSession(sessionId, itemKey).then((failed) => {
          setBusy(false)
          setError(failed)
        })
      }}
    >
      <BranchIcon size={14} />
    </button>
  )
}
