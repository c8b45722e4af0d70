import type { JSX } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import { continueTurn, sendAgain } from './branch-actions'
import { useChat } from './chat-store'
import { Button } from '../../ui/button'
import { useAttempt } from '../../ui/use-attempt'

type TurnEndItem = Extract<TranscriptItem, { kind: 'turn-end' }>

/** The ways on from a turn that ended short; each says what went wrong, or null. */
const ways: {
  name: string
  label: string
  title: string
  run: () => Promise<string | null>
}[] = [
  {
    name: 'retry',
    label: 'Retry',
    title: 'Send the same message again; this attempt stays as an earlier version',
    run: sendAgain
  },
  {
    name: 'continue',
    label: 'Continue',
    title: 'Ask the model to carry on from what it had',
    run: async () => ((await continueTurn()) ? null : 'could not send; try again in a moment')
  }
]

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
  const { busy: pending, error, run } = useAttempt()
  return (
    <div className="turn-recovery" data-testid="turn-recovery">
      {ways.map((way) => (
        <Button
          key={way.name}
          data-testid={`${way.name}-turn`}
          disabled={busy || pending}
          title={way.title}
          onClick={() => run(way.run)}
        >
          {way.label}
        </Button>
      ))}
      {error && (
        <span className="turn-recovery__error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}
