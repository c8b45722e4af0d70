import { z } from 'zod'
import { formatSpan } from '../../jobs/job'
import type { JobManager } from '../../jobs/job-manager'
import { defineTool, errorOutput, textOutput, type Capabilities, type Tool } from '../tool'
import { jobResult, MODEL_OUTPUT_CHARS } from './job-result'

export const DEFAULT_TIMEOUT_MS = 2 * 60_000
export const MAX_TIMEOUT_MS = 10 * 60_000

/**
 * What a shell command may do: anything the person could do in a terminal here. It sees private
 * data and can destroy it, and it reaches the network wherever the command says (chosen egress).
 * Untrusted input is not declared, as the issue lists it: the output is this machine's, and
 * declaring it would trip the interlock (private + untrusted) on the first command and lock the
 * shell out; commands that fetch from the network are the business of the rules on commands.
 */
export const shellCapabilities: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'chosen',
  destructive: true
}

const inputSchema = z.strictObject({
  command: z.string().min(1).describe('The bash command to run, in the project folder.'),
  description: z
    .string()
    .max(200)
    .optional()
    .describe('A few words on what the command does, shown to the person (e.g. "Run the tests").'),
  timeout_ms: z
    .number()
    .int()
    .min(1000)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Stop the command after this many milliseconds. Default ${DEFAULT_TIMEOUT_MS} (2 minutes) in the foreground, none in the background; at most ${MAX_TIMEOUT_MS}.`
    ),
  background: z
    .boolean()
    .default(false)
    .describe(
      'Return at once with a job id and keep the command running: for servers, watchers and long builds.'
    )
})

/** Runs a command in a pty in the project folder; in the background, returns a job id at once. */
export function shellTool(jobs: JobManager): Tool {
  return defineTool({
    name: 'Shell',
    description: [
      'Run a bash command in the project folder, in a terminal (pty), and get its output and',
      'exit code. A non-zero exit, a timeout or a stop comes back as an error that says which.',
      'Foreground commands are stopped after 2 minutes unless timeout_ms says otherwise (at most',
      '10 minutes). With background: true the command keeps running and you get a job id',
      '(bashcmd-N) at once; ShellStatus is the only way back to it: its output, wait_ms to wait',
      'for it, cancel to stop it. Use the background for servers, watchers and long builds;',
      'background jobs still running when the session ends are stopped. Stdin is empty, so',
      'commands cannot prompt for input: pass flags such as --yes. Each command gets its own',
      'empty TMPDIR, removed when it ends, and anything a foreground command leaves running is',
      `stopped when it ends. You see the last ${MODEL_OUTPUT_CHARS.toLocaleString('en-US')}`,
      'characters of output, colours removed.'
    ].join(' '),
    inputSchema,
    readOnly: false,
    capabilities: shellCapabilities,
    source: 'builtin',
    async call(input, ctx) {
      const timeoutMs = input.timeout_ms ?? (input.background ? null : DEFAULT_TIMEOUT_MS)
      let job
      try {
        job = await jobs.start({
          sessionId: ctx.sessionId,
          workspace: ctx.jail.root,
          callId: ctx.callId ?? null,
          command: input.command,
          description: input.description ?? null,
          background: input.background,
          timeoutMs
        })
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return errorOutput(`The command could not be started: ${message}`)
      }
      if (input.background) {
        const limit =
          timeoutMs === null ? '' : ` It will be stopped after ${formatSpan(timeoutMs)}.`
        return {
          ...textOutput(
            `Started ${job.id} in the background.${limit} Use ShellStatus with job_id "${job.id}" to see its output, wait_ms to wait for it to finish, or cancel: true to stop it.`
          ),
          display: { kind: 'job', jobId: job.id }
        }
      }
      const onAbort = (): void => void job.stop('turn')
      ctx.signal.addEventListener('abort', onAbort, { once: true })
      if (ctx.signal.aborted) onAbort()
      try {
        await job.finished
      } finally {
        ctx.signal.removeEventListener('abort', onAbort)
      }
      const result = jobResult(job)
      jobs.release(job)
      return result
    }
  })
}
