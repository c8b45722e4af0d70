import type { JSX } from 'react'
import { RefreshIcon } from '../../lib/icons'
import { sendAgain } from './branch-actions'
import { useAttempt } from '../../ui/use-attempt'

/** On the newest reply: the same message again for another answer (this one stays a version). */
export function RegenerateButton(): JSX.Element {
  const { busy, error, run } = useAttempt()
  return (
    <button
      type="button"
      className="message-actions__button"
      data-testid="regenerate-reply"
      title={error ?? 'Regenerate: ask again for another reply (this one is kept)'}
      aria-label="Regenerate this reply"
      disabled={busy}
      onClick={() => run(sendAgain)}
    >
      <RefreshIcon size={14} />
    </button>
  )
}
