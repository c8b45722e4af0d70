import { useEffect, useState, type JSX } from 'react'
import { retryLine } from '../../../../shared/retry-line'
import { StopIcon } from '../../lib/icons'
import { stopTurn } from './chat-store'
import './retry-notice.css'

interface Props {
  waitMs: number
  reason: string
  attempt: number
  maxRetries: number
}

/**
 * A failed request waiting to be tried again: how long (counting down from when the window heard
 * of it), why, and a Stop that ends the turn there rather than after the wait.
 */
export function RetryNotice({ waitMs, reason, attempt, maxRetries }: Props): JSX.Element {
  const [until] = useState(() => Date.now() + waitMs)
  const [left, setLeft] = useState(waitMs)
  useEffect(() => {
    const tick = setInterval(() => setLeft(Math.max(0, until - Date.now())), 250)
    return () => clearInterval(tick)
  }, [until])
  return (
    <div className="retry-notice" role="status" data-testid="retry-notice">
      <span className="retry-notice__line">{retryLine(left, reason)}</span>
      <span className="retry-notice__count">
        retry {attempt - 1} of {maxRetries}
      </span>
      <button
        type="button"
        className="retry-notice__stop"
        data-testid="retry-stop"
        onClick={() => void stopTurn()}
      >
        <StopIcon size={12} /> Stop
      </button>
    </div>
  )
}

/** Under a reply whose connection broke: its text is all that arrived; the retry follows. */
export function InterruptedMark(): JSX.Element {
  return (
    <div className="retry-notice retry-notice--interrupted" data-testid="reply-interrupted">
      Interrupted: the connection dropped here, so the request was sent again; the reply below is
      the new one.
    </div>
  )
}
