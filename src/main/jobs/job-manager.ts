import { commandEnvironment } from '../../shared/command-env'
import type { JobSummary } from '../../shared/jobs'
import type { TemporaryStorageSettings } from '../../shared/temporary-storage'
import { Job, type JobSpec, type StopCause } from './job'
import { JOB_MARKER_VAR, markerValue, newJobToken } from './job-marker'
import type { OutputBatch, OutputSnapshot } from './output-stream'
import { TempStorage, type CommandTemp } from './temp-storage'

/** Kept per job: enough scrollback for the monitor and the model's tail, bounded whatever runs. */
export const DEFAULT_RING_BYTES = 1024 * 1024

/**
 * Background jobs the person dismissed that stay for ShellStatus. Past this many the oldest
 * leaves, output and all: a day of dev servers and watchers otherwise kept every one of them,
 * each with up to a ring of output the model never asked for.
 */
export const KEPT_DISMISSED_JOBS = 8

/** What the manager tells the window about; the core forwards these as contract events. */
export interface JobEvents {
  updated(job: JobSummary): void
  output(jobId: string, batch: OutputBatch): void
  dismissed(jobId: string): void
}

export interface JobManagerOptions {
  events?: Partial<JobEvents>
  /** Where the per-command temp directories go (default: the system's temp folder). */
  tempBase?: string
  /** The TMPDIR of commands that use the system's (default: the system's temp folder). */
  systemTempDir?: string
  /** `temporary_storage` of the settings in force (default: managed, reaped after 24h). */
  temporaryStorage?: () => TemporaryStorageSettings
  /** false: no background reaper passes (tests run them through `temp.reapNow`). */
  reapInBackground?: boolean
  ringBytes?: number
  /** The environment commands take their variables from (default: this process's). */
  env?: NodeJS.ProcessEnv
  /** Which of its variables pass beside the fixed ones, read at each start (default: none). */
  envPolicy?: () => Promise<CommandEnvPolicy> | CommandEnvPolicy
}

/** Beside PATH, HOME, LANG… (shared/command-env.ts): what a person listed, and what never passes. */
export interface CommandEnvPolicy {
  /** Names a person listed (`shell.env_passthrough`). */
  passthrough: readonly string[]
  /** The keys Mecatl itself uses: never a command's, whatever lists them. */
  never: ReadonlySet<string>
}

export interface StartRequest {
  sessionId: string
  workspace: string
  callId: string | null
  command: string
  description?: string | null
  background: boolean
  timeoutMs: number | null
  /**
   * How to confine the command, given its temp directory (null: it runs bare). Throwing refuses
   * the command with the reason: a sandbox that cannot be honoured never means running bare.
   */
  confine?: (tmp: string) => Promise<JobSpec['confine'] | null>
  /** `system`: the system temp directory as TMPDIR (the gate has allowed ShellSystemTemp). */
  tempScope?: 'system'
}

/**
 * Every shell command of every session: foreground commands while they run (so the window can
 * show and stop them) and background jobs until the session ends, or a few dismissals after the
 * person dismissed them. Each runs in its own pty
 * with its own leased TMPDIR, removed when it ends (see temp-storage.ts).
 */
export class JobManager {
  private readonly jobs = new Map<string, Job>()
  /** Dismissed background jobs still held, oldest dismissal first (see KEPT_DISMISSED_JOBS). */
  private readonly dismissedIds: string[] = []
  /** The commands' temporary storage and its reaper. */
  readonly temp: TempStorage
  private readonly events: Partial<JobEvents>
  private readonly ringBytes: number
  private next = 1
  private disposed = false

  constructor(private readonly options: JobManagerOptions = {}) {
    this.temp = new TempStorage({
      base: options.tempBase,
      systemTempDir: options.systemTempDir,
      settings: options.temporaryStorage,
      background: options.reapInBackground
    })
    this.events = options.events ?? {}
    this.ringBytes = options.ringBytes ?? DEFAULT_RING_BYTES
  }

  async start(request: StartRequest): Promise<Job> {
    if (this.disposed) throw new Error('the job manager is shut down')
    const id = `bashcmd-${this.next++}`
    const envPolicy = (await this.options.envPolicy?.()) ?? { passthrough: [], never: new Set() }
    const temp = await this.temp.allocate(id, request.tempScope)
    const token = newJobToken()
    let job: Job
    try {
      const confine = (await request.confine?.(temp.tmp)) ?? undefined
      const env = this.environment(temp.tmp, token, envPolicy)
      job = this.spawn(id, temp, token, request, env, confine)
    } catch (error) {
      await temp.release()
      throw error
    }
    this.jobs.set(id, job)
    this.announce(job)
    return job
  }

  private spawn(
    id: string,
    temp: CommandTemp,
    token: string,
    request: StartRequest,
    env: Record<string, string>,
    confine: JobSpec['confine']
  ): Job {
    const job: Job = new Job(
      {
        id,
        sessionId: request.sessionId,
        workspace: request.workspace,
        callId: request.callId,
        background: request.background,
        command: request.command,
        description: request.description ?? null,
        timeoutMs: request.timeoutMs,
        confine,
        env,
        token,
        ringBytes: this.ringBytes
      },
      {
        output: (batch) => this.events.output?.(id, batch),
        changed: () => this.announce(job),
        cleanup: () => temp.release()
      }
    )
    return job
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id)
  }

  /** The background jobs of one session, oldest first: what ShellStatus lists. */
  backgroundJobs(sessionId: string): Job[] {
    return [...this.jobs.values()].filter(
      (j) => j.spec.sessionId === sessionId && j.spec.background
    )
  }

  /** What the window's monitor shows for a project folder. */
  list(workspace: string): JobSummary[] {
    return [...this.jobs.values()]
      .filter((job) => job.spec.workspace === workspace && !job.dismissed)
      .map((job) => job.summary())
  }

  /** Stops a running job; false when there is no such job or it already ended. */
  stop(id: string, cause: StopCause): boolean {
    return this.jobs.get(id)?.stop(cause) ?? false
  }

  /** Stops the foreground command a tool call is running (the window's Stop on its card). */
  stopCall(sessionId: string, callId: string, cause: StopCause): boolean {
    for (const job of this.jobs.values()) {
      if (job.spec.sessionId === sessionId && job.spec.callId === callId && job.running) {
        return job.stop(cause)
      }
    }
    return false
  }

  /** Waits until the job ends or `ms` pass (or `signal` aborts); true when it ended. */
  async wait(job: Job, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (!job.running) return true
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
      onAbort = resolve
      signal?.addEventListener('abort', onAbort, { once: true })
    })
    await Promise.race([job.finished, gaveUp])
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    return !job.running
  }

  /** A foreground command's result was taken: it leaves the manager and the window. */
  release(job: Job): void {
    if (job.running || !this.jobs.delete(job.id)) return
    job.ring.release()
    this.events.dismissed?.(job.id)
  }

  /** The model has the finished job's whole result; its output is kept until dismissed. */
  markCollected(job: Job): void {
    job.collected = true
    if (job.dismissed) job.ring.release()
  }

  /** The person removed a finished job from the monitor; false while it still runs. */
  dismiss(id: string): boolean {
    const job = this.jobs.get(id)
    if (!job || job.running || job.dismissed) return false
    job.dismissed = true
    job.stream.close()
    // The model may still ask for it; once it has, nothing needs the output any more.
    if (job.collected || !job.spec.background) job.ring.release()
    if (!job.spec.background) this.jobs.delete(id)
    else this.forgetOldDismissed(id)
    this.events.dismissed?.(id)
    return true
  }

  private forgetOldDismissed(id: string): void {
    this.dismissedIds.push(id)
    while (this.dismissedIds.length > KEPT_DISMISSED_JOBS) {
      const oldest = this.jobs.get(this.dismissedIds.shift() as string)
      oldest?.ring.release()
      if (oldest) this.jobs.delete(oldest.id)
    }
  }

  follow(id: string, viewer: string): OutputSnapshot | null {
    return this.jobs.get(id)?.stream.follow(viewer) ?? null
  }

  unfollow(id: string, viewer: string): void {
    this.jobs.get(id)?.stream.unfollow(viewer)
  }

  ack(id: string, viewer: string, chars: number): void {
    this.jobs.get(id)?.stream.ack(viewer, chars)
  }

  /** Stops every running job of a session and waits for them to end. */
  async stopSession(sessionId: string, cause: StopCause = 'session'): Promise<void> {
    const running = [...this.jobs.values()].filter(
      (job) => job.spec.sessionId === sessionId && job.running
    )
    for (const job of running) job.stop(cause)
    await Promise.all(running.map((job) => job.finished))
  }

  /**
   * Stops everything, waits until every process any job started is dead, and removes the temp
   * directories.
   */
  async dispose(): Promise<void> {
    this.disposed = true
    const all = [...this.jobs.values()]
    for (const job of all) job.stop('session')
    await Promise.all(all.map((job) => job.finished))
    await this.temp.dispose()
  }

  private announce(job: Job): void {
    this.events.updated?.(job.summary())
  }

  /**
   * Built from an allowlist, never by taking keys out: a variable nobody named stays behind,
   * whatever it is called (see shared/command-env.ts).
   */
  private environment(
    tmp: string,
    token: string,
    policy: CommandEnvPolicy
  ): Record<string, string> {
    const source = this.options.env ?? process.env
    const env = commandEnvironment(source, policy.passthrough, policy.never)
    return {
      ...env,
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      TMPDIR: tmp,
      TMP: tmp,
      TEMP: tmp,
      // Nobody is at the keyboard to page through output.
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      // Set last and never hidden: it is how everything the command starts is found and ended.
      [JOB_MARKER_VAR]: markerValue(source[JOB_MARKER_VAR], token)
    }
  }
}
