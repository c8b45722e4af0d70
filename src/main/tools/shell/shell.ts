import { z } from 'zod'
import { formatSpan } from '../../jobs/job'
import type { JobManager } from '../../jobs/job-manager'
import type { TemporaryStorageSettings } from '../../../shared/temporary-storage'
import { defineTool, errorOutput, textOutput, type Capabilities, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'
import { jobResult, MODEL_OUTPUT_CHARS } from './job-result'
import {
  describeSandbox,
  SandboxRefused,
  type Confine,
  type ConfineOptions,
  type SandboxStatus
} from '../../sandbox/sandbox-service'
import { groupedDigits } from '../../../shared/grouped-digits'

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

/** Where the sandbox stands for the settings in force, and how to confine one command. */
export interface ShellSandbox {
  status(): SandboxStatus
  /** Where it will stand if its self-test passes: what the model is told (see SandboxService). */
  expected(): SandboxStatus
  /** Null: run it bare (the person chose no sandbox). Throws SandboxRefused when it must not run. */
  confine(workspace: string, tmp: string, asked?: ConfineOptions): Promise<Confine | null>
}

/**
 * Shell's capabilities follow its sandbox, as the design says: confined with no network it sends
 * nothing anywhere (egress none, so the interlock leaves it alone); through the allowlist proxy
 * it reaches only hosts the configuration fixed (blind). It still reads and destroys what is in
 * the folder. Anything else (network on, unconfined, not yet checked) is a chosen send.
 */
export function shellCapabilitiesUnder(status: SandboxStatus): Capabilities {
  if (status.state !== 'confined') return shellCapabilities
  if (status.network === 'off') return { ...shellCapabilities, egress: 'none' }
  if (status.network === 'allowlist') return { ...shellCapabilities, egress: 'blind' }
  return shellCapabilities
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
  sandbox: z
    .enum(['off'])
    .optional()
    .describe(
      'Only when the sandbox blocks what the command truly needs: "off" runs this one command unconfined. A person must approve it every time.'
    ),
  network: z
    .enum(['on'])
    .optional()
    .describe(
      'Only when the command needs the network and the sandbox has none: "on" gives this one command the network. A person must approve it every time.'
    ),
  background: z
    .boolean()
    .default(false)
    .describe(
      'Return at once with a job id and keep the command running: for servers, watchers and long builds.'
    ),
  temp_scope: z
    .enum(['system'])
    .optional()
    .describe(
      'Only when a command must share temporary files with other programs or leave them for a later command: "system" gives it the system temp directory as TMPDIR instead of its own private one. It needs a separate permission, ShellSystemTemp, besides the one for the command.'
    )
})

/**
 * Runs a command in a pty in the project folder; in the background, returns a job id at once.
 * `temp` is `temporary_storage.mode`, for what the model is told of TMPDIR.
 */
export function shellTool(
  jobs: JobManager,
  sandbox: ShellSandbox | null = null,
  temp: TemporaryStorageSettings['mode'] = 'managed'
): Tool {
  const none: SandboxStatus = { state: 'unconfined', why: 'no sandbox is set up here' }
  const status = (): SandboxStatus => sandbox?.status() ?? none
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
      'commands cannot prompt for input: pass flags such as --yes.',
      tempSentence(temp),
      'Anything a foreground command leaves running is stopped when it ends.',
      `You see the last ${groupedDigits(MODEL_OUTPUT_CHARS)}`,
      'characters of output, colours removed.',
      sandboxSentence(sandbox?.expected() ?? none)
    ]
      .filter(Boolean)
      .join(' '),
    inputSchema,
    readOnly: false,
    // Read when asked, not when made: a turn's tools are made before the sandbox has answered
    // its self-test, and nothing judges a call of that turn before it has (see turn-loop.ts).
    get capabilities() {
      return shellCapabilitiesUnder(status())
    },
    // A call that leaves the sandbox (or takes the network) is a chosen send again.
    capabilitiesFor: (input) =>
      input.sandbox || input.network ? shellCapabilities : shellCapabilitiesUnder(status()),
    escapes: (input) => escapeCost(input, status()),
    source: 'builtin',
    // What the command printed, which is the folder's as much as its files are.
    folderContent: true,
    needsFolder: true,
    defaultDecision: null,
    presentation: {
      ...plainPresentation('Shell', 'commands'),
      resultView: 'job',
      sentence: (input) =>
        (input as { background?: unknown } | null)?.background === true
          ? 'Start the command below in the project folder, in the background: it keeps running until it ends or is stopped.'
          : 'Run the command below in the project folder.'
    },
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
          timeoutMs,
          tempScope: input.temp_scope,
          confine:
            sandbox && input.sandbox !== 'off'
              ? (tmp) =>
                  sandbox.confine(ctx.jail.root, tmp, {
                    network: input.network,
                    gitWritable: ctx.gitWriteApproved === true
                  })
              : undefined
        })
      } catch (error) {
        if (error instanceof SandboxRefused) return errorOutput(refusedText(error.why))
        const message = error instanceof Error ? error.message : String(error)
        return errorOutput(`The command could not be started: ${message}`)
      }
      const confinement = ranWhere(status(), input)
      if (input.background) {
        const limit =
          timeoutMs === null ? '' : ` It will be stopped after ${formatSpan(timeoutMs)}.`
        return {
          ...textOutput(
            `Started ${job.id} in the background.${limit} Use ShellStatus with job_id "${job.id}" to see its output, wait_ms to wait for it to finish, or cancel: true to stop it.`
          ),
          display: { kind: 'job', jobId: job.id },
          confinement
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
      return { ...result, confinement }
    }
  })
}

/** What the model is told of TMPDIR under the temporary storage mode in force. */
function tempSentence(mode: TemporaryStorageSettings['mode']): string {
  return mode === 'system'
    ? 'TMPDIR is the system temp directory, shared with other programs.'
    : 'Each command gets its own empty TMPDIR, removed when it ends; temp_scope: "system" (a separate permission) gives one command the system temp directory instead.'
}

/** Why a command did not run: the sandbox it must run in cannot be honoured, and the two fixes. */
export function refusedText(why: string): string {
  return `Shell is refused: the sandbox cannot be used (${why}). Nothing was run: commands never run unconfined while a sandbox is configured. The person can fix the sandbox, or choose "No sandbox" (sandbox.kind: none) in Settings → Permissions to run commands unconfined.`
}

/** What approving an escape from the sandbox gives away, for the approval dialog; null if none. */
function escapeCost(
  input: { sandbox?: 'off'; network?: 'on' },
  status: SandboxStatus
): string | null {
  if (status.state !== 'confined') return null
  if (input.sandbox === 'off') {
    return 'this command asks to run outside the sandbox: it could then read your secrets (~/.ssh, ~/.aws, keys), write anywhere you can and reach the network. Only a person can allow that, for this one command'
  }
  if (input.network === 'on' && status.network !== 'on') {
    return 'this command asks for the network, which the sandbox does not give it: it could then send what it reads anywhere. Only a person can allow that, for this one command'
  }
  return null
}

/** What the model is told of its sandbox, so it does not try what cannot work. */
function sandboxSentence(status: SandboxStatus): string {
  switch (status.state) {
    case 'confined':
      return `Commands run confined (${status.backend}): the project folder is writable, the rest of the disk read-only, the person's secrets unreadable${status.network === 'on' ? '' : ', and there is no network'}${status.network === 'allowlist' ? ' except the hosts the person allowed' : ''}. Ask for sandbox: "off" or network: "on" only when a command truly needs it; a person must approve each such call.`
    case 'refused':
      return `Shell cannot run commands right now: ${status.why}.`
    default:
      return ''
  }
}

/** Where one command ran, as its card says it. */
function ranWhere(status: SandboxStatus, input: { sandbox?: 'off'; network?: 'on' }): string {
  if (status.state !== 'confined') return describeSandbox(status)
  if (input.sandbox === 'off') return 'not confined (a person allowed it for this command)'
  if (input.network === 'on' && status.network !== 'on') {
    return `confined (${status.backend}), network on (a person allowed it for this command)`
  }
  return describeSandbox(status)
}
