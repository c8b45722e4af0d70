import { RpcError } from '../../shared/contract'
import type { Handlers } from '../../shared/contract/handlers'
import type { JobManager } from './job-manager'

type JobCall =
  | 'jobs.list'
  | 'jobs.output'
  | 'jobs.unfollow'
  | 'jobs.ack'
  | 'jobs.cancel'
  | 'jobs.dismiss'
  | 'tool.stop'

/**
 * The job monitor's calls. A viewer is the caller (one window or tab), so each window's
 * acknowledgements pace only its own view.
 */
export function jobHandlers(
  jobs: JobManager,
  checkFolder: (folder: string) => Promise<string>
): Pick<Handlers, JobCall> {
  return {
    'jobs.list': async ({ workspace }) => ({
      jobs: jobs.list(await checkFolder(workspace))
    }),
    'jobs.output': async ({ jobId }, ctx) => {
      const snapshot = jobs.follow(jobId, ctx.caller)
      if (!snapshot)
        throw new RpcError('not_found', `there is no job ${jobId}; it may have been dismissed`)
      return snapshot
    },
    'jobs.unfollow': async ({ jobId }, ctx) => {
      jobs.unfollow(jobId, ctx.caller)
      return { ok: true }
    },
    'jobs.ack': async ({ jobId, chars }, ctx) => {
      jobs.ack(jobId, ctx.caller, chars)
      return { ok: true }
    },
    'jobs.cancel': async ({ jobId }) => ({ cancelled: jobs.stop(jobId, 'person') }),
    'jobs.dismiss': async ({ jobId }) => ({ dismissed: jobs.dismiss(jobId) }),
    'tool.stop': async ({ sessionId, callId }) => ({
      stopped: jobs.stopCall(sessionId, callId, 'person')
    })
  }
}
