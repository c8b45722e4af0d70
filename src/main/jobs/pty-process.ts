import { existsSync } from 'node:fs'
import * as pty from 'node-pty'
import { ExitMarker } from './exit-marker'
import { JOB_MARKER_VAR, parseMarker } from './job-marker'
import { killMarked, ofJob, signalMarked, type MarkerMatch } from './marked-processes'
import { processExists, signalTree } from './process-group'

export interface PtyCommand {
  command: string
  cwd: string
  /** Must hold the job's marker ({@link JOB_MARKER_VAR}) with `token` as its last entry. */
  env: Record<string, string>
  /** The job's token: every process carrying it in its marker is ended with the job. */
  token: string
  cols?: number
  rows?: number
  /** Runs the shell inside a sandbox (see sandbox/sandbox-service.ts); bare when absent. */
  confine?: (file: string, args: string[]) => { file: string; args: string[] }
}

export interface PtyExit {
  exitCode: number
  /** The signal that ended the shell, if one did. */
  signal: number | null
}

const COLS = 120
const ROWS = 40
/** While paused, how often to check whether the command ended (see `pause`). */
const EXIT_POLL_MS = 40

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'

/**
 * One command in its own pseudo-terminal, so it prints as it would for a person (colours,
 * progress bars) and can be stopped with everything it started. The shell is a session and
 * process-group leader (node-pty calls setsid), so killing the group kills its children and
 * theirs; what left the group and the session is found by the job's marker in its environment
 * (see job-marker.ts). `exited` resolves only once all of it is dead. Stdin is /dev/null:
 * nobody is there to type, so a prompt ends instead of hanging.
 */
export class PtyProcess {
  readonly pid: number
  readonly exited: Promise<PtyExit>
  private readonly term: pty.IPty
  private paused = false
  private draining = false
  private poll: NodeJS.Timeout | null = null
  private ended = false
  private readonly marker = new ExitMarker()
  private reported = false
  private readonly mine: MarkerMatch

  constructor(spec: PtyCommand, onData: (chunk: Buffer) => void) {
    // Without its token in the environment, the job's own processes could not be found.
    if (parseMarker(spec.env[JOB_MARKER_VAR]).at(-1)?.token !== spec.token) {
      throw new Error(`the command's environment does not carry its job marker (${JOB_MARKER_VAR})`)
    }
    this.mine = ofJob(spec.token)
    const shell = { file: SHELL, args: ['-c', this.marker.script(spec.command)] }
    const { file, args } = spec.confine ? spec.confine(shell.file, shell.args) : shell
    this.term = pty.spawn(file, args, {
      name: 'xterm-256color',
      cols: spec.cols ?? COLS,
      rows: spec.rows ?? ROWS,
      cwd: spec.cwd,
      env: spec.env,
      // Raw bytes: the job keeps bytes and decodes them where it must, never mid-character.
      encoding: null
    })
    this.pid = this.term.pid
    this.term.onData((data: unknown) => {
      const chunk = this.marker.filter(Buffer.isBuffer(data) ? data : Buffer.from(String(data)))
      if (chunk.length > 0) onData(chunk)
      // All its output is in: the shell waits in its trap, and what it left running goes too.
      if (this.marker.exitCode !== null && !this.reported) {
        this.reported = true
        signalTree(this.pid, 'SIGKILL')
        signalMarked(this.mine, 'SIGKILL')
      }
    })
    this.exited = new Promise((resolve) => {
      this.term.onExit(({ exitCode, signal }) => {
        this.ended = true
        this.stopPolling()
        const rest = this.marker.flush()
        if (rest.length > 0) onData(rest)
        // Nothing a command started outlives it: a leftover that ignored the hang-up goes now,
        // and the job is not over until the last one is dead.
        signalTree(this.pid, 'SIGKILL')
        const reported = this.marker.exitCode
        const exit: PtyExit =
          reported === null
            ? { exitCode, signal: signal ? signal : null }
            : { exitCode: reported, signal: null }
        const settle = (): void => resolve(exit)
        void killMarked(this.mine).then(settle, settle)
      })
    })
  }

  /**
   * Stops reading, so the kernel's buffer fills and the command blocks on its next write. node-pty
   * only waits 200 ms after the shell exits for the rest of the output, so while paused the
   * shell is watched, and reading resumes for good the moment it is gone.
   */
  pause(): void {
    if (this.paused || this.draining || this.ended) return
    this.paused = true
    this.term.pause()
    this.poll = setInterval(() => {
      if (!processExists(this.pid)) {
        this.draining = true
        this.resume()
      }
    }, EXIT_POLL_MS)
  }

  resume(): void {
    this.stopPolling()
    if (!this.paused) return
    this.paused = false
    this.term.resume()
  }

  get isPaused(): boolean {
    return this.paused
  }

  /**
   * Stops the command and everything it started: SIGTERM to the whole tree, then SIGKILL to
   * what is left after `graceMs`; once the shell is gone, the rest is killed at once.
   */
  terminate(graceMs = 1500): void {
    if (this.ended) return
    // A paused reader would hold a dying command on its last write.
    this.draining = true
    this.resume()
    signalTree(this.pid, 'SIGTERM')
    signalMarked(this.mine, 'SIGTERM')
    // Not unref'd: this is what ends a shell that ignores SIGTERM, so whether it dies must not
    // depend on some other handle keeping Mecatl alive until then.
    const timer = setTimeout(() => {
      signalTree(this.pid, 'SIGKILL')
      signalMarked(this.mine, 'SIGKILL')
    }, graceMs)
    void this.exited.then(() => clearTimeout(timer))
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll)
    this.poll = null
  }
}
