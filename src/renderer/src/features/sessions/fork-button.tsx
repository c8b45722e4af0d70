import type { JSX } from 'react'
import { BranchIcon } from '../../lib/icons'
import { forkSession } from './session-actions'
import { useAttempt } from '../../ui/use-attempt'

interface Props {
  sessionId: string
  /** The message's transcript key: the new session holds everything up to it. */
  itemKey: string
  disabled?: boolean
}

/** "Fork from here": a new session with the conversation up to this message, selected. */
export function ForkButton({ sessionId, itemKey, disabled }: Props): JSX.Element {
  const { busy, error, run } = useAttempt()
  return (
    <button
      type="button"
      className="fork-button"
      data-testid="fork-button"
      title={error ?? 'Fork: a new session with the conversation up to here'}
      aria-label="Fork a new session from this message"
      disabled={disabled || busy}
      onClick={() => run(() => forkSession(sessionId, itemKey))}
    >
      <BranchIcon size={14} />
    </button>
  )
}
