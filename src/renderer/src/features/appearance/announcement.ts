import type { AnyEvent } from '../../../../shared/contract'
import type { JobSummary } from '../../../../shared/jobs'

/** A session's title, '' for an untitled one, or null for a session that is not this window's. */
export type TitleOf = (sessionId: string) => string | null

function named(title: string): string {
  return `“${title || 'New session'}”`
}

/**
 * What the live region says about an event, or null for nothing: a reply that finished or
 * failed (not one the person stopped: they know), and a tool call waiting for approval. Sessions
 * another window shows stay quiet here, as their notifications do.
 */
export function announcementFor(event: AnyEvent, titleOf: TitleOf): string | null {
  switch (event.event) {
    case 'turn.completed': {
      const title = titleOf(event.payload.sessionId)
      if (title === null || event.payload.stopReason === 'cancelled') return null
      return `Reply finished in ${named(title)}.`
    }
    case 'turn.failed': {
      const title = titleOf(event.payload.sessionId)
      if (title === null) return null
      return `The reply in ${named(title)} failed: ${event.payload.error}`
    }
    case 'approval.requested': {
      const title = titleOf(event.payload.sessionId)
      if (title === null) return null
      return `${event.payload.tool} is waiting for your approval in ${named(title)}.`
    }
    default:
      return null
  }
}

const endings: Record<Exclude<JobSummary['state'], 'running'>, string> = {
  done: 'Job finished',
  failed: 'Job failed',
  'timed-out': 'Job timed out',
  stopped: 'Job stopped'
}

function jobEnded(job: JobSummary): string {
  const name = job.description ?? job.command
  const how =
    job.stopReason !== null
      ? ` (${job.stopReason})`
      : job.exitCode !== null
        ? ` (exit code ${job.exitCode})`
        : ''
  return `${endings[job.state as keyof typeof endings]}: ${name}${how}.`
}

/**
 * The announcements of a stream of events, jobs included: a background job is announced once
 * when it ends, though its summary keeps arriving after (output counts, a dismissal). Foreground
 * commands are left to the reply they belong to, which is announced when it finishes.
 */
export function createAnnouncements(titleOf: TitleOf): (event: AnyEvent) => string | null {
  const ended = new Set<string>()
  return (event) => {
    if (event.event !== 'job.updated') return announcementFor(event, titleOf)
    const job = event.payload
    if (job.state === 'running') {
      ended.delete(job.id)
      return null
    }
    if (!job.background || ended.has(job.id) || titleOf(job.sessionId) === null) return null
    ended.add(job.id)
    return jobEnded(job)
  }
}
