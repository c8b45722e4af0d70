import { useState, type JSX } from 'react'
import { RefreshIcon } from '../../lib/icons'
import { sendAgain } from './branch-actions'

/** On the newest reply: the same message again for another answer (this one stays a version). */
export function RegenerateButton(): JSX.Element {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className="message-actions__button"
      data-testid="regenerate-reply"
      title={error ?? 'Regenerate: ask again for another reply (this one is kept)'}
      aria-label="Regenerate this reply"
      disabled={busy}
      onClick={() => {
        setBusy(true)
        void sendAgain().then((failed) => {
          setBusy(false)
          setError(failed)
        })
      }}
    >
      <RefreshIcon size={14} />
    </button>
  )
}
