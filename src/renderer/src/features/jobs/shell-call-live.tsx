import type { JSX } from 'react'
import type { ToolCallView } from '../../../../shared/domain'
import { StopIcon, TerminalIcon } from '../../lib/icons'
import { jobOfCall, startedJob } from './jobs-reducer'
import { showJob, stopCall, useJobs } from './jobs-store'
import { LazyTerminalView } from './lazy-terminal-view'
import './jobs.css'

/**
 * What a Shell call's card adds: while a foreground command runs, its live output and a Stop
 * button; once a background job has started, a way to it in the job monitor.
 */
export function ShellCallLive({
  call,
  sessionId
}: {
  call: ToolCallView
  /** The session the conversation shows. */
  sessionId: string | null
}): JSX.Element | null {
  const job = useJobs((s) =>
    call.state === 'running' ? jobOfCall(s.state, sessionId, call.id) : null
  )
  const stopping = useJobs((s) => (job ? s.state.stopping.includes(job.id) : false))
  const started = useJobs((s) => startedJob(s.state, sessionId, call)?.id ?? null)

  if (job && sessionId) {
    return (
      <div className="shell-live" data-testid="shell-live">
        <div className="shell-live__bar">
          <span className="shell-live__label">Live output</span>
          <button
            type="button"
            className="button button--small button--danger-outline"
            onClick={() => void stopCall(sessionId, call.id, job.id)}
            disabled={stopping}
            data-testid="shell-stop"
          >
            <StopIcon size={12} /> {stopping ? 'Stopping…' : 'Stop'}
          </button>
        </div>
        <LazyTerminalView key={job.id} jobId={job.id} compact />
      </div>
    )
  }
  if (started) {
    return (
      <div className="shell-live__started">
        <button
          type="button"
          className="link-button shell-live__open"
          onClick={() => showJob(started)}
          data-testid="shell-open-job"
        >
          <TerminalIcon size={13} /> Show {started} in the job monitor
        </button>
      </div>
    )
  }
  return null
}
