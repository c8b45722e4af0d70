import type { JobState, JobSummary } from '../../shared/jobs'
import { OutputStream, type OutputBatch } from './output-stream'
import { PtyProcess, type PtyCommand, type PtyExit } from './pty-process'
import { ByteRing } from './ring-buffer'
import { UrlDetector } from './url-detector'

/** Who or what stopped a job before it ended by itself. */
export type StopCause = 'model' | 'person' | 'turn' | 'session' | 'timeout'

/** Why a job was stopped, by whom or what stopped it (a timeout says how long it ran). */
const stoppedBy: Record<Exclude<StopCause, 'timeout'>, string> = {
  model: 'cancelled by the model',
  person: 'stopped by the person',
  turn: 'stopped because the turn was stopped',
  session: 'stopped because the session ended'
}

export interface JobSpec {
  id: string
  sessionId: string
  workspace: string
  callId: string | null
  background: boolean
  command: string
  description: string | null
  /** Null: runs until it ends or is stopped. */
  timeoutMs: number | null
  /** Runs the command inside a sandbox; bare when absent. */
  confine?: PtyCommand['confine']
  /** Holds the job's marker, ending in `token` (see job-marker.ts). */
  env: Record<string, string>
  /** Names this job in the marker every process it starts carries. */
  token: string
  ringBytes: number
}

export interface JobHooks {
  output(batch: OutputBatch): void
  /** The summary changed: it started, found a URL, or ended. */
  changed(): void
  /** Runs after the process ended and before `finished` resolves (the temp dir goes here). */
  cleanup(): Promise<void>
}

/** One shell command in a pty, from start to its exit code, with its output's tail. */
export class Job {
  readonly id: string
  readonly spec: JobSpec
  readonly startedAt = Date.now()
  readonly ring: ByteRing
  readonly stream: OutputStream
  readonly finished: Promise<void>
  state: JobState = 'running'
  exitCode: number | null = null
  stopReason: string | null = null
  endedAt: number | null = null
  /** The model has had the finished job's whole result. */
  collected = false
  /** The person removed it from the monitor. */
  dismissed = false
  private cause: StopCause | null = null
  private readonly urls = new UrlDetector()
  private readonly process: PtyProcess
  private readonly timer: NodeJS.Timeout | null

  constructor(spec: JobSpec, hooks: JobHooks) {
    this.id = spec.id
    this.spec = spec
    this.ring = new ByteRing(spec.ringBytes)
    this.process = new PtyProcess(
      {
        command: spec.command,
        cwd: spec.workspace,
        env: spec.env,
        token: spec.token,
        confine: spec.confine
      },
      (chunk) => {
        this.ring.push(chunk)
        this.stream.push(chunk)
        if (this.urls.feed(chunk)) hooks.changed()
      }
    )
    this.stream = new OutputStream(this.ring, this.process, hooks.output)
    this.timer =
      spec.timeoutMs === null ? null : setTimeout(() => this.stop('timeout'), spec.timeoutMs)
    this.finished = this.process.exited.then(async (exit) => {
      if (this.timer) clearTimeout(this.timer)
      this.stream.close()
      this.urls.end()
      this.settle(exit)
      await hooks.cleanup().catch(() => undefined)
      hooks.changed()
    })
  }

  get command(): string {
    return this.spec.command
  }

  get running(): boolean {
    return this.state === 'running'
  }

  /** How long it ran, or has been running. */
  get elapsedMs(): number {
    return (this.endedAt ?? Date.now()) - this.startedAt
  }

  /** Stops it and everything it started; false when it was no longer running. */
  stop(cause: StopCause): boolean {
    if (!this.running || this.cause) return false
    this.cause = cause
    this.process.terminate()
    return true
  }

  summary(): JobSummary {
    const { spec } = this
    return {
      id: this.id,
      sessionId: spec.sessionId,
      workspace: spec.workspace,
      callId: spec.callId,
      background: spec.background,
      command: spec.command,
      description: spec.description,
      state: this.state,
      exitCode: this.exitCode,
      stopReason: this.stopReason,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      outputBytes: this.ring.totalBytes,
      droppedBytes: this.ring.droppedBytes,
      urls: this.urls.urls
    }
  }

  private settle(exit: PtyExit): void {
    this.endedAt = Date.now()
    this.exitCode = exit.signal === null ? exit.exitCode : null
    switch (this.cause) {
      case 'timeout':
        this.state = 'timed-out'
        this.stopReason = `timed out after ${formatSpan(this.spec.timeoutMs ?? 0)}`
        return
      case null:
        if (exit.signal !== null) {
          this.state = 'failed'
          this.stopReason = `killed by signal ${exit.signal}`
        } else {
          this.state = exit.exitCode === 0 ? 'done' : 'failed'
        }
        return
      default:
        this.state = 'stopped'
        this.stopReason = stoppedBy[this.cause]
    }
  }
}

/** "40 ms", "4.2 s", "2.5 min": a span of time, for the model and for stop reasons. */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`
  return `${Math.round(ms / 6000) / 10} min`
}
