import type { EventPayload } from '../../../shared/contract'
import type { EventFrame } from '../../../shared/contract/bridge'
import type { ToolCallView } from '../../../shared/domain'
import type { Core } from '../../core'
import { createProvider } from '../../providers/create-provider'
import { KeyFile } from '../../providers/key-file'
import { dataDirectory } from '../../settings/data-dir'
import type { Provider } from '../../providers/provider'
import { createMemoryPair } from '../../rpc/memory-transport'
import { UsageError, type CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'
import { requireDistinctToolNames } from '../mcp-collisions'
import { coreStopper, stopProblem } from '../../core-stop'
import { ExitCode, signalExitCode } from '../exit'
import { onStopSignals, type StopSignal } from '../stop-signals'
import { retryLine } from '../../providers/retry'
import { printError, printJson, streamWriter, writeOut } from '../print'

const FLAG_PROVIDER_ID = 'cli'

/**
 * `run 'PROMPT'`: a headless session through the same router the window uses. With --json every
 * event is printed as one JSON line with its `type`; otherwise the reply streams to stdout and
 * tool calls are summarised on stderr. Exits 0 when the model finished, 1 when the turn failed,
 * 3 when it was stopped at the step limit, and 130 (SIGINT, Ctrl-C) or 143 (SIGTERM) when
 * stopped by a signal: the turn is recorded as cancelled and the core stopped first, unless a
 * second signal quits at once (see stop-signals.ts).
 */
export async function runCommand(args: CliArgs): Promise<number> {
  const [prompt, ...extra] = args.positionals
  if (!prompt) throw new UsageError("run needs a prompt: run 'Summarise README.md' --workspace .")
  if (extra.length > 0) throw new UsageError('run takes one prompt; quote it')
  const workspace = requireWorkspace(args)
  const flagged = providerFromFlags(args)
  // Listening from the start: a signal before the turn begins still stops the run cleanly.
  let signalled: StopSignal | null = null
  const stopSignal = (): StopSignal | null => signalled
  let cancelTurn = (): void => undefined
  const stopListening = onStopSignals('run', (signal) => {
    signalled = signal
    cancelTurn()
  })
  try {
    const core = await cliCore(args, {
      host: 'cli',
      interactive: false,
      workspace,
      defaultModel: flagged ? { providerId: FLAG_PROVIDER_ID, model: flagged.model } : undefined,
      providerFor: (ref) =>
        flagged && ref.providerId === FLAG_PROVIDER_ID ? flagged.provider : null
    })
    await requireDistinctToolNames(core, workspace)
    // The turn ends recorded as cancelled; the core then stops as it does for the window.
    cancelTurn = () => void core.sessions.dispose()
    const client = createMemoryPair(core.router, core.hub, 'cli')
    const printHuman = humanPrinter()
    const finished = new Promise<number>((resolve) => {
      client.subscribe((frame) => {
        if (args.json) printJson({ type: frame.event, ...(frame.payload as object) })
        else printHuman(frame)
        if (frame.event === 'turn.completed') {
          resolve(completedCode(frame.payload as EventPayload<'turn.completed'>))
        }
        if (frame.event === 'turn.failed') resolve(ExitCode.failed)
      })
    })
    const session = await client.call('session.create', { workspace, profile: args.profile })
    // With --json the session's summaries say it (`folderTrust: "untrusted"`).
    if (!args.json && session.folderTrust === 'untrusted') {
      printError(
        `mecatl run: ${workspace} is not a trusted folder, so what is read from it counts as untrusted input and sends the model can aim are refused once it has read something private. Trust the folder in the window, or pass --trust-project to trust it for this run.`
      )
    }
    let code: number = ExitCode.ok
    if (stopSignal() === null) {
      await client.call('session.send', { sessionId: session.id, text: prompt })
      // A signal that came while the send was on its way found no turn yet to cancel.
      if (stopSignal() !== null) core.sessions.cancel(session.id)
      code = await finished
    }
    await core.sessions.idle(session.id)
    client.close()
    const problem = stopProblem(await coreStopper(() => core.dispose())())
    if (problem) {
      printError(`mecatl run: ${problem}`)
      return ExitCode.failed
    }
    const signal = stopSignal()
    if (signal) return signalExitCode(signal)
    return code === ExitCode.ok ? recordedCode(core, session.id) : code
  } finally {
    stopListening()
  }
}

/** A record lost once the turn had ended (its last summary) fails the run as well. */
function recordedCode(core: Core, sessionId: string): number {
  const lost = core.store.sessions.recordingFailure(sessionId)
  if (!lost) return ExitCode.ok
  printError(`mecatl: ${lost}`)
  return ExitCode.failed
}

/** A completed turn's exit code; one that did not end by itself says why on stderr. */
function completedCode(payload: EventPayload<'turn.completed'>): number {
  if (payload.stopReason === 'max_steps') {
    printError(
      'mecatl: the model was stopped at the step limit before it finished; what it did so far is recorded (sessions show), and a new run can carry on from there'
    )
    return ExitCode.maxSteps
  }
  if (payload.stopReason === 'cancelled') {
    printError('mecatl: the run was cancelled')
    return ExitCode.cancelled
  }
  if (payload.stopReason === 'max_tokens') {
    printError(
      'mecatl: the last reply was cut at the output token limit (max_tokens in the settings)'
    )
  }
  return ExitCode.ok
}

function providerFromFlags(args: CliArgs): { provider: Provider; model: string } | null {
  if (!args.provider && !args.baseUrl && !args.model) return null
  if (!args.model) throw new UsageError('--provider and --base-url need --model ID as well')
  const kind =
    args.provider === 'anthropic' ? 'anthropic' : args.baseUrl ? 'openai-compatible' : 'openai'
  const keyEnv = kind === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'
  // A server named by --base-url (a local one) may need no key: OPENAI_API_KEY goes when set,
  // in the environment or in the key file (`mecatl keys set OPENAI_API_KEY`).
  const stored = new KeyFile(dataDirectory())
  const readSecret = (name: string): string | undefined => stored.read(name)
  const wantsKey =
    kind !== 'openai-compatible' || Boolean(process.env[keyEnv] || readSecret(keyEnv))
  const provider = createProvider(
    {
      id: FLAG_PROVIDER_ID,
      kind,
      base_url: args.baseUrl,
      ...(wantsKey ? { api_key_env: keyEnv } : {}),
      models: [args.model]
    },
    { env: process.env, readSecret }
  )
  return { provider, model: args.model }
}

/**
 * The reply on stdout as it streams, and one line per finished tool call on stderr (so a reply
 * piped from stdout stays only the reply). All of it is model and tool text: made safe to show.
 */
function humanPrinter(): (frame: EventFrame) => void {
  const reply = streamWriter()
  return (frame) => {
    const payload = frame.payload as Record<string, unknown>
    if (frame.event === 'message.delta') reply.write(String(payload.delta))
    if (frame.event === 'transcript.item') {
      const item = payload.item as {
        kind: string
        call?: ToolCallView
        streaming?: boolean
        retry?: { waitMs: number; reason: string; attempt: number; maxRetries: number }
      }
      if (item.kind === 'assistant' && item.streaming === false) {
        reply.end()
        writeOut('\n')
      }
      // The window's line.
      if (item.kind === 'assistant' && item.retry) {
        const { waitMs, reason, attempt, maxRetries } = item.retry
        printError(
          `mecatl: ${retryLine(waitMs, reason)} (retry ${attempt - 1} of ${maxRetries}; Ctrl-C stops)`
        )
      }
      if (item.kind === 'tool' && item.call && item.call.state !== 'running') {
        const call = item.call
        const note = call.state === 'awaiting-approval' ? 'asking' : call.state
        printError(`[${call.name}] ${note}${call.refusedBy ? ` (${call.refusedBy})` : ''}`)
      }
    }
    if (frame.event === 'turn.failed') printError(`error: ${String(payload.error)}`)
  }
}
