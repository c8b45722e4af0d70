import { useState, type JSX } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import { continueTurn, sendAgain } from './branch-actions'
import { useChat } from './chat-store'

type TurnEndItem = Extract<TranscriptItem, { kind: 'turn-end' }>

/** Whether a turn ended short of an answer: stopped, failed, or cut off when the app stopped. */
export function endedShort(item: TurnEndItem): boolean {
  return (
    item.error !== null ||
    item.stopReason === 'interrupted' ||
    /cancel|abort|stop(ped)?_by_user|interrupt/i.test(item.stopReason)
  )
}

/**
 * Under the last turn when it ended short: Retry sends the same request again (a new version of
 * the message; the failed one is kept), Continue asks the model to carry on from what it had.
 */
export function TurnRecovery(): JSX.Element | null {
  const busy = useChat((s) => s.state.running || s.state.sending || s.state.status !== 'ready')
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const act = (action: () => Promise<string | null>): void => {
    setPending(true)
    void action().then((failed) => {
      setPending(false)
      setError(failed)
    })
  }
  return (
    <div className="turn-recovery" data-testid="turn-recovery">
      <button
        type="button"
        className="button"
        data-testid="retry-turn"
        disabled={busy || pending}
        title="Send the same message again; this attempt stays as an earlier version"
        onClick={() => act(sendAgain)}
      >
        Retry
      </button>
      <button
        type="button"
        className="button"
        data-testid="continue-turn"
        disabled={busy || pending}
        title="Ask the model to carry on from what it had"
        onClick={() =>
          act(async () => ((await continueTurn()) ? null : 'could not send; try again in a moment'))
        }
      >
        Continue
      </button>
      {error && (
        <span className="turn-recovery__error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}
