import { useState, type JSX } from 'react'
import { forkSession } from './session-actions'

const BranchIcon = (): JSX.Element => (
  <svg
    width="14"
    height="14"
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.5"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="4.5" cy="12.5" r="1.5" />
    <circle cx="11.5" cy="5.5" r="1.5" />
    <path d="M4.5 5v6M11.5 7c0 2.5-2 3-7 4" />
  </svg>
)

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
      <BranchIcon />
    </button>
  )
}
