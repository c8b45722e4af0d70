import { z } from 'zod'
import { jobSummarySchema } from '../jobs'
import { folderPath, type CallSpec } from './call-spec'

const jobRef = z.object({ jobId: z.string().min(1) }).strict()

/** Shell jobs: the job monitor, following output with acknowledgements, and stopping a running command. */
export const calls = {
  /** Shell jobs of a project's sessions: background jobs, and foreground commands while they run. */
  'jobs.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ jobs: z.array(jobSummarySchema) })
  },
  /**
   * Starts following a job's output: the tail it keeps now, then `job.output` batches numbered
   * after `seq`. Each batch must be acknowledged (`jobs.ack`) or the job is paused to wait.
   */
  'jobs.output': {
    input: jobRef,
    output: z.object({ data: z.string(), seq: z.number(), droppedBytes: z.number() })
  },
  'jobs.unfollow': { input: jobRef, output: z.object({ ok: z.boolean() }) },
  'jobs.ack': {
    input: z.object({ jobId: z.string().min(1), chars: z.number().int().min(0) }).strict(),
    output: z.object({ ok: z.boolean() })
  },
  /** Stops a running job and everything it started. */
  'jobs.cancel': { input: jobRef, output: z.object({ cancelled: z.boolean() }) },
  /** Removes a finished job from the monitor. */
  'jobs.dismiss': { input: jobRef, output: z.object({ dismissed: z.boolean() }) },
  /** The person stops a running tool call (a foreground Shell command). */
  'tool.stop': {
    input: z.object({ sessionId: z.string().min(1), callId: z.string().min(1) }).strict(),
    output: z.object({ stopped: z.boolean() })
  }
} satisfies Record<string, CallSpec>

export const events = {
  'job.updated': jobSummarySchema,
  'job.output': z.object({ jobId: z.string(), data: z.string(), seq: z.number() }),
  'job.dismissed': z.object({ jobId: z.string() })
} satisfies Record<string, z.ZodType>
