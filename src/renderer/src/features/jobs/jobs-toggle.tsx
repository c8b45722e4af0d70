import type { JSX } from 'react'
import { TerminalIcon } from '../../lib/icons'
import { runningCount } from './jobs-reducer'
import { toggleMonitor, useJobs } from './jobs-store'
import './jobs.css'

/** The chat header's button that opens and closes the job monitor, with the running count. */
export function JobsToggle(): JSX.Element {
  const open = useJobs((s) => s.state.open)
  const running = useJobs((s) => runningCount(s.state))
  return (
    <button
      type="button"
      className={`jobs-toggle${open ? ' jobs-toggle--open' : ''}`}
      onClick={toggleMonitor}
      aria-pressed={open}
      title={open ? 'Hide the job monitor' : 'Show the job monitor'}
      data-testid="jobs-toggle"
    >
      <TerminalIcon size={14} />
      <span className="header-label">Jobs</span>
      {running > 0 && (
        <span className="jobs-toggle__count" data-testid="jobs-running-count">
          {running}
        </span>
      )}
    </button>
  )
}
