import { useState, type JSX } from 'react'
import type { SessionSummary } from '../../../../shared/domain'
import { setPlanning } from './planning'
import './safety.css'

function usePlanningSwitch(session: SessionSummary | null): {
  on: boolean
  pending: boolean
  error: string | null
  flip: (planning: boolean) => void
} {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const flip = (planning: boolean): void => {
    if (!session || pending) return
    setPending(true)
    setError(null)
    void setPlanning(session.id, planning).then((failed) => {
      setPending(false)
      setError(failed)
    })
  }
  return { on: session?.planning ?? false, pending, error, flip }
}

/** The header switch for planning mode. */
export function PlanningToggle({ session }: { session: SessionSummary | null }): JSX.Element {
  const { on, pending, error, flip } = usePlanningSwitch(session)
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      className={`planning-toggle${on ? ' planning-toggle--on' : ''}`}
      data-testid="planning-toggle"
      disabled={!session || pending}
      title={
        error ??
        (on
          ? 'Planning mode is on: only read-only tools. Click to let the model change things again.'
          : 'Planning mode: the model may only read and search, and proposes changes instead of making them.')
      }
      onClick={() => flip(!on)}
    >
      <span className="planning-toggle__track" aria-hidden="true">
        <span className="planning-toggle__thumb" />
      </span>
      <span className="header-label">Planning</span>
      {error && <span className="planning-toggle__error">!</span>}
    </button>
  )
}

/** The strip under the header while planning mode is on. */
export function PlanningBanner({
  session,
  running
}: {
  session: SessionSummary | null
  running: boolean
}): JSX.Element | null {
  const { on, pending, error, flip } = usePlanningSwitch(session)
  if (!on) return null
  return (
    <div className="planning-banner" data-testid="planning-banner" role="status">
      <span className="planning-banner__text">
        <strong>Planning: only read-only tools.</strong> The model can read and search, and proposes
        changes instead of making them{running ? ' (from your next message)' : ''}.
      </span>
      {error && <span className="planning-banner__error">{error}</span>}
      <button
        type="button"
        className="button button--small"
        data-testid="planning-leave"
        disabled={pending}
        onClick={() => flip(false)}
      >
        Leave planning
      </button>
    </div>
  )
}
