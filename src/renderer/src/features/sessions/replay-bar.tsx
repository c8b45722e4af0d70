import { useEffect, type JSX } from 'react'
import { useReplay } from './replay-store'

/** Replaces the composer while a session is replayed: step back and forth, or leave. */
export function ReplayBar(): JSX.Element {
  const { step, total } = useReplay((s) => s.state)
  const dispatch = useReplay((s) => s.dispatch)

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) {
        return
      }
      if (event.key === 'ArrowRight') dispatch({ type: 'next' })
      if (event.key === 'ArrowLeft') dispatch({ type: 'prev' })
      if (event.key === 'Escape') dispatch({ type: 'stop' })
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [dispatch])

  return (
    <div className="replay-bar" data-testid="replay-bar" role="toolbar" aria-label="Replay">
      <span className="replay-bar__label">Replay</span>
      <button type="button" onClick={() => dispatch({ type: 'first' })} disabled={step <= 1}>
        « First
      </button>
      <button
        type="button"
        data-testid="replay-prev"
        onClick={() => dispatch({ type: 'prev' })}
        disabled={step <= 1}
      >
        ← Prev
      </button>
      <span className="replay-bar__step" data-testid="replay-step">
        Step {step} of {total}
      </span>
      <button
        type="button"
        data-testid="replay-next"
        onClick={() => dispatch({ type: 'next' })}
        disabled={step >= total}
      >
        Next →
      </button>
      <button type="button" onClick={() => dispatch({ type: 'last' })} disabled={step >= total}>
        Last »
      </button>
      <button
        type="button"
        className="replay-bar__exit"
        data-testid="replay-exit"
        onClick={() => dispatch({ type: 'stop' })}
      >
        Exit replay
      </button>
    </div>
  )
}
