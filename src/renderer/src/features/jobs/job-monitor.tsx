import type { JSX } from 'react'
import type { JobSummary } from '../../../../shared/jobs'
import { formatDuration } from '../../lib/format'
import { CloseIcon, ExternalIcon, StopIcon, TerminalIcon } from '../../lib/icons'
import { useNow } from '../../lib/use-now'
import { jobBadge, jobDuration, jobOutcome } from './job-status'
import { monitorJobs, runningCount, shownJob } from './jobs-reducer'
import { closeMonitor, dismissJob, selectJob, stopJob, useJobs } from './jobs-store'
import { LazyTerminalView } from './lazy-terminal-view'
import './jobs.css'

function StateBadge({ job }: { job: JobSummary }): JSX.Element {
  const { label, tone } = jobBadge(job)
  return (
    <span className={`badge badge--${tone}`} data-testid="job-state">
      {job.state === 'running' && <span className="spinner-dot spinner-dot--small" />}
      {label}
    </span>
  )
}

function JobRow({
  job,
  selected,
  now
}: {
  job: JobSummary
  selected: boolean
  now: number
}): JSX.Element {
  return (
    <li>
      <button
        type="button"
        className={`job-row${selected ? ' job-row--selected' : ''}`}
        aria-current={selected}
        onClick={() => selectJob(job.id)}
        data-testid="job-row"
        data-job={job.id}
        data-state={job.state}
      >
        <span className={`job-row__dot job-row__dot--${jobBadge(job).tone}`} aria-hidden="true" />
        <span className="job-row__main">
          <span className="job-row__command mono" title={job.command}>
            {job.command}
          </span>
          <span className="job-row__meta">
            {job.description ? `${job.description} · ` : ''}
            {job.state === 'running' ? 'running' : jobOutcome(job)} ·{' '}
            {formatDuration(jobDuration(job, now))}
          </span>
        </span>
        <StateBadge job={job} />
      </button>
    </li>
  )
}

function JobDetail({ job, now }: { job: JobSummary; now: number }): JSX.Element {
  const stopping = useJobs((s) => s.state.stopping.includes(job.id))
  const actionError = useJobs((s) => s.state.actionError)
  const running = job.state === 'running'
  return (
    <section className="job-detail" aria-label={`Job ${job.id}`} data-testid="job-detail">
      <header className="job-detail__header">
        <div className="job-detail__title">
          <code className="job-detail__command" title={job.command} data-testid="job-command">
            {job.command}
          </code>
          <div className="job-detail__meta">
            <StateBadge job={job} />
            <span>{job.id}</span>
            <span>·</span>
            <span data-testid="job-duration">{formatDuration(jobDuration(job, now))}</span>
            {!running && (
              <>
                <span>·</span>
                <span data-testid="job-outcome">{jobOutcome(job)}</span>
              </>
            )}
          </div>
        </div>
        {running ? (
          <button
            type="button"
            className="button button--small button--danger-outline"
            onClick={() => void stopJob(job.id)}
            disabled={stopping}
            data-testid="job-stop"
          >
            <StopIcon size={12} /> {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => void dismissJob(job.id)}
            data-testid="job-dismiss"
          >
            Dismiss
          </button>
        )}
      </header>
      {job.urls.length > 0 && (
        <div className="job-detail__links" data-testid="job-links">
          {job.urls.map((url) => (
            <a
              key={url.href}
              className="job-link"
              href={url.href}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="job-link"
            >
              <ExternalIcon size={12} />
              {url.text}
            </a>
          ))}
        </div>
      )}
      {actionError && (
        <p className="job-detail__error" role="alert">
          {actionError}
        </p>
      )}
      <LazyTerminalView key={job.id} jobId={job.id} />
    </section>
  )
}

/**
 * The job monitor: the background jobs of this project's sessions, with the selected one's
 * live output in a terminal. Finished jobs stay until dismissed.
 */
export function JobMonitor(): JSX.Element | null {
  const state = useJobs((s) => s.state)
  const running = runningCount(state)
  const now = useNow(1000, running > 0)
  if (!state.open) return null
  const jobs = monitorJobs(state)
  const shown = shownJob(state)

  return (
    <aside className="side-panel job-monitor" aria-label="Jobs" data-testid="job-monitor">
      <header className="side-panel__header job-monitor__header">
        <TerminalIcon size={15} className="side-panel__icon" />
        <h2 className="side-panel__title">Jobs</h2>
        <span className="side-panel__count">
          {jobs.length === 0 ? '' : running > 0 ? `${running} running` : 'none running'}
        </span>
        <button
          type="button"
          className="side-panel__button"
          onClick={closeMonitor}
          title="Close the job monitor"
          data-testid="job-monitor-close"
        >
          <CloseIcon size={14} />
        </button>
      </header>
      {state.status === 'error' && (
        <p className="job-monitor__error" role="alert">
          The jobs could not be listed: {state.error}
        </p>
      )}
      {jobs.length === 0 ? (
        <div className="job-monitor__empty" data-testid="job-monitor-empty">
          <TerminalIcon size={22} />
          <p>No background jobs.</p>
          <p className="job-monitor__hint">
            When Mecatl runs a command in the background — a dev server, a watcher, a long build —
            it shows here with its live output.
          </p>
        </div>
      ) : (
        <>
          <ul className="job-list" data-testid="job-list">
            {jobs.map((job) => (
              <JobRow key={job.id} job={job} selected={job.id === shown?.id} now={now} />
            ))}
          </ul>
          {shown && <JobDetail job={shown} now={now} />}
        </>
      )}
    </aside>
  )
}
