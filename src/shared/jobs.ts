import { z } from 'zod'

/**
 * Where a shell command stands: still `running`; `done` (exit 0); `failed` (another exit code);
 * `timed-out`; or `stopped` (cancelled by the model, the person, or the session ending).
 */
export const jobStateSchema = z.enum(['running', 'done', 'failed', 'timed-out', 'stopped'])
export type JobState = z.infer<typeof jobStateSchema>

/** A link found in a job's output, such as the address a dev server prints. */
export const jobUrlSchema = z.object({
  /** As printed, colours removed. */
  text: z.string(),
  /** What to open: 0.0.0.0 and [::] become localhost. */
  href: z.string()
})
export type JobUrl = z.infer<typeof jobUrlSchema>

/** One shell command as the window shows it: background jobs, and foreground calls while they run. */
export const jobSummarySchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  workspace: z.string(),
  /** The Shell call that started it. */
  callId: z.string().nullable(),
  background: z.boolean(),
  command: z.string(),
  description: z.string().nullable(),
  state: jobStateSchema,
  exitCode: z.number().nullable(),
  /** Why it was stopped or timed out, in words; null while running or after a normal exit. */
  stopReason: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Bytes printed so far, and how many of the oldest are no longer kept. */
  outputBytes: z.number(),
  droppedBytes: z.number(),
  urls: z.array(jobUrlSchema)
})
export type JobSummary = z.infer<typeof jobSummarySchema>
