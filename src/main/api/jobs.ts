import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { checkFolder } from '../workspace/check-folder'

/**
 * The job monitor's calls. A viewer is the caller (one window or tab), so each window's
 * acknowledgements pace only its own view.
 */
export function jobsApi({ jobs }: Pick<Services, 'jobs'>): SliceHandlers<'jobs'> {
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
