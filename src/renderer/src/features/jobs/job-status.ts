import type { JobSummary } from '../../../../shared/jobs'

export type Tone = 'blue' | 'green' | 'red' | 'amber' | 'neutral'

/** The job's state in one or two words, with the colour the badges use. */
export function jobBadge(job: JobSummary): { label: string; tone: Tone } {
  switch (job.state) {
    case 'running':
      return { label: 'Running', tone: 'blue' }
    case 'done':
      return { label: 'Exit 0', tone: 'green' }
    case 'failed':
      return job.exitCode === null
        ? { label: 'Killed', tone: 'red' }
        : { label: `Exit ${job.exitCode}`, tone: 'red' }
    case 'timed-out':
      return { label: 'Timed out', tone: 'amber' }
    case 'stopped':
      return { label: 'Stopped', tone: 'neutral' }
  }
}

/** How it ended, as a phrase: "exited with code 0", "stopped by the person". */
export function jobOutcome(job: JobSummary): string {
  if (job.state === 'running') return 'running'
  if (job.stopReason) return job.stopReason
  return `exited with code ${job.exitCode ?? '?'}`
}

/** How long it ran, or has been running at `now`. */
export function jobDuration(job: JobSummary, now: number): number {
  return Math.max(0, (job.endedAt ?? now) - job.startedAt)
}
