import type { Capabilities, ChildStep, ToolDisplay } from '../../../shared/domain'
import type { Taint } from '../../gate/taint'
import { errorOutput, textOutput, type ToolOutput } from '../../tools/tool'

/** Background sub-agents one session may have running at once. */
export const MAX_RUNNING_PER_SESSION = 8

/** A finished delegation: its result, and what it brings into the conversation that reads it. */
export interface Delegated {
  output: ToolOutput
  taint: Pick<Taint, 'privateData' | 'untrustedInput'>
}

/** How a background child is run: to its end or until `signal`, reporting its card as it goes. */
export type BackgroundWork = (
  signal: AbortSignal,
  progress: (display: ToolDisplay) => void
) => Promise<Delegated>

export type BackgroundState = 'running' | 'done' | 'failed' | 'cancelled'

/** One sub-agent started with `background: true`. */
export interface BackgroundRun {
  readonly id: string
  readonly sessionId: string
  readonly agent: string
  readonly task: string
  /** What its answer may bring in: the capabilities of the tools it was given. */
  readonly capabilities: Capabilities
  readonly startedAt: number
  state: BackgroundState
  /** Why it was cancelled (who stopped it), once it was. */
  stopReason: string | null
  steps: ChildStep[]
  result: Delegated | null
  /** Its result was returned to the model once; it is never returned again. */
  collected: boolean
  readonly finished: Promise<void>
}

export interface BackgroundStart {
  sessionId: string
  /** The call that started it, whose card shows the child's progress and end. */
  callId?: string
  agent: string
  task: string
  capabilities: Capabilities
  work: BackgroundWork
}

/**
 * Sub-agents running in the background, for every session: each keeps running after the call
 * that started it has returned its handle, and its answer is collected once with SubagentStatus
 * (as ShellStatus does for jobs). All are stopped when the core is disposed, which is how a
 * session's run ends (the window closing, a CLI command finishing).
 */
export class BackgroundChildren {
  private readonly runs = new Map<string, BackgroundRun>()
  private readonly controllers = new Map<string, AbortController>()
  private counter = 0
  private disposed = false

  /** `showCard` puts a child's progress on the card of the call that started it. */
  constructor(
    private readonly showCard: (
      sessionId: string,
      callId: string,
      display: ToolDisplay
    ) => void = () => undefined
  ) {}

  /** Starts a child and returns its handle at once, as the starting call's result. */
  start(spec: BackgroundStart): ToolOutput {
    if (this.disposed) return errorOutput('Mecatl is shutting down; no sub-agent can be started.')
    const running = this.list(spec.sessionId).filter((run) => run.state === 'running')
    if (running.length >= MAX_RUNNING_PER_SESSION) {
      return errorOutput(
        `${running.length} background sub-agents are already running in this session (${running.map((r) => r.id).join(', ')}); collect or cancel one with SubagentStatus first.`
      )
    }
    const id = `subagent-${++this.counter}`
    const controller = new AbortController()
    const show = (display: ToolDisplay): void => {
      if (!spec.callId) return
      try {
        this.showCard(spec.sessionId, spec.callId, display)
      } catch {
        // A card that cannot be shown (its session gone) must not stop the child.
      }
    }
    const note = `in the background as ${id}`
    const started: ToolDisplay = {
      kind: 'subagent',
      agent: spec.agent,
      task: spec.task,
      status: 'running',
      steps: [],
      note
    }
    let settle: () => void = () => undefined
    const run: BackgroundRun = {
      id,
      sessionId: spec.sessionId,
      agent: spec.agent,
      task: spec.task,
      capabilities: spec.capabilities,
      startedAt: Date.now(),
      state: 'running',
      stopReason: null,
      steps: [],
      result: null,
      collected: false,
      finished: new Promise<void>((resolve) => (settle = resolve))
    }
    const progress = (display: ToolDisplay): void => {
      if (run.state !== 'running' || display.kind !== 'subagent') return
      run.steps = display.steps
      show({ ...display, note })
    }
    const ended = (result: Delegated): void => {
      run.result = result
      run.state = controller.signal.aborted
        ? 'cancelled'
        : result.output.isError
          ? 'failed'
          : 'done'
      this.controllers.delete(id)
      try {
        // A child that threw has no transcript of its own: its card still must not stay running.
        const display =
          result.output.display?.kind === 'subagent'
            ? result.output.display
            : { ...started, status: 'failed' as const, steps: run.steps, note: null }
        run.steps = display.steps
        const shown = [display.note, `ran in the background as ${id}`].filter(Boolean).join('; ')
        show({ ...display, note: shown })
      } finally {
        settle()
      }
    }
    this.runs.set(id, run)
    this.controllers.set(id, controller)
    // Started once the run is listed, so even a child that fails at once is found by its id.
    spec
      .work(controller.signal, progress)
      .catch((error: unknown): Delegated => {
        const why = error instanceof Error ? error.message : String(error)
        return {
          output: errorOutput(`The sub-agent "${spec.agent}" failed: ${why}`),
          // Whatever it read before it failed is unknown: count all its tools could bring.
          taint: {
            privateData: spec.capabilities.privateData,
            untrustedInput: spec.capabilities.untrustedInput
          }
        }
      })
      .then(ended)
      // A card that could not be shown must not become an unhandled rejection.
      .catch(() => undefined)
    return {
      ...textOutput(
        `Started the sub-agent in the background as ${id}. It works on while you go on; call SubagentStatus with id "${id}" to see how it is doing, wait_ms to wait for its answer, or cancel: true to stop it. Its answer is given once.`
      ),
      display: started
    }
  }

  /** A session's background children, oldest first. */
  list(sessionId: string): BackgroundRun[] {
    return [...this.runs.values()].filter((run) => run.sessionId === sessionId)
  }

  /** A child by its handle, in any session (the caller checks whose it is). */
  find(id: string): BackgroundRun | undefined {
    return this.runs.get(id)
  }

  /** Stops a running child; `why` is what its listing says stopped it. */
  cancel(run: BackgroundRun, why: string): void {
    const controller = this.controllers.get(run.id)
    if (!controller || controller.signal.aborted) return
    run.stopReason = why
    controller.abort(new Error(why))
  }

  /**
   * Stops every child of a session still running (it is being deleted), forgets them all, and
   * resolves once each has ended: none goes on working for a conversation that is gone.
   */
  async stopSession(sessionId: string, why: string): Promise<void> {
    const runs = this.list(sessionId)
    for (const run of runs) this.cancel(run, why)
    await Promise.allSettled(runs.map((run) => run.finished))
    for (const run of runs) this.runs.delete(run.id)
  }

  /** Waits until the child ends, `ms` pass, or `signal` aborts, whichever is first. */
  async wait(run: BackgroundRun, ms: number, signal: AbortSignal): Promise<void> {
    if (run.state !== 'running' || signal.aborted) return
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    await Promise.race([
      run.finished,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms)
        onAbort = resolve
        signal.addEventListener('abort', onAbort, { once: true })
      })
    ])
    clearTimeout(timer)
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }

  /** The child's result the first time it is asked for after it ended; null after that. */
  collect(run: BackgroundRun): Delegated | null {
    if (run.state === 'running' || run.collected || !run.result) return null
    run.collected = true
    return run.result
  }

  /** Stops every child still running and waits for them to end. */
  async dispose(): Promise<void> {
    this.disposed = true
    const running = [...this.runs.values()].filter((run) => run.state === 'running')
    for (const run of running) this.cancel(run, 'the session ended')
    await Promise.all(running.map((run) => run.finished))
  }
}
