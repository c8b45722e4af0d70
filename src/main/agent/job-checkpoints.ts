import type { JobSummary } from '../../shared/jobs'
import type { Checkpoints } from '../checkpoints/checkpoints'
import type { EventHub } from '../events/event-hub'
import { updateCard } from './card-update'
import type { Session } from './session'

export interface JobCheckpointDeps {
  checkpoints: Checkpoints
  hub: EventHub
  /** The live session a job belongs to, or null when it is gone. */
  session: (sessionId: string) => Session | null
}

/**
 * A background job changes files after its Shell call has returned: when it ends, the folder is
 * checkpointed and the card of the call that started it lists what the job changed, so those
 * changes can be seen and undone like the call's own.
 */
export function jobCheckpoints(deps: JobCheckpointDeps): (job: JobSummary) => void {
  const seen = new Set<string>()
  return (job) => {
    if (!job.background || job.state === 'running' || seen.has(job.id)) return
    seen.add(job.id)
    void (async () => {
      const files = await deps.checkpoints.filesAfter(
        job.workspace,
        `after background job ${job.id} ended`,
        job.sessionId,
        'job'
      )
      const session = deps.session(job.sessionId)
      if (!files || !session || !job.callId) return
      updateCard(session, deps.hub, job.callId, (call) => ({
        ...call,
        files: [...(call.files ?? []).filter((f) => f.during !== 'job'), files]
      }))
    })()
  }
}
