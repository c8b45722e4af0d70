import { killMarked, ofJob } from '../jobs/marked-processes'
import { readProcStat, stillRunning } from '../jobs/process-group'
import { namespaceUnder, type NamespacedTree, type ProcessRef } from '../sandbox/pid-namespace'

/** How long {@link ServerTree.end} waits for a namespace's init to go before it goes on. */
const INIT_GONE_MS = 5_000

/**
 * Every process one local server started, so they all end with it: on stop, on restart, when it
 * dies, when Mecatl quits. Two things reach them. The server usually runs in a PID namespace of
 * its own (sandbox/pid-namespace.ts, or the sandbox's), whose processes the kernel ends with its
 * init. And every one of its processes carries the server's marker in its environment
 * (jobs/job-marker.ts), the only way where there is no namespace, and how the sweep at the next
 * start finds what a killed Mecatl left.
 */
export class ServerTree {
  private spawned: ProcessRef | null = null
  /** Looked for when first needed (a scan of /proc), not on every start's path. */
  private namespace: NamespacedTree | null | undefined = undefined
  private ending: Promise<void> | null = null

  /**
   * `token`: the server's marker token, which its environment carries; `wrapped`: its command is
   * a wrapper that runs the server in a PID namespace (never looked for otherwise, so a server
   * that runs bubblewrap itself is not taken for one).
   */
  constructor(
    private readonly token: string,
    private readonly wrapped: boolean
  ) {}

  /** Takes note of the process the transport started (its namespace is looked for later). */
  found(pid: number | null): void {
    const stat = pid ? readProcStat(pid) : null
    if (!pid || !stat) return
    this.spawned = { pid, startTime: stat.startTime }
  }

  /** What runs in the namespace the spawned process made, if it made one (see namespaceUnder). */
  private inNamespace(): NamespacedTree | null {
    if (!this.wrapped) return null
    if (this.namespace === undefined && this.spawned) {
      const { pid, startTime } = this.spawned
      // Only while the wrapper runs: a reused pid's children are not the server's.
      this.namespace = stillRunning(pid, startTime) ? namespaceUnder(pid) : null
    }
    return this.namespace ?? null
  }

  /**
   * The server's own process: the command inside its namespace when it has one (else the
   * wrapper, whose end is the namespace's too).
   */
  main(): ProcessRef | null {
    return this.inNamespace()?.command ?? this.spawned
  }

  /** Sends `signal` to the server's own process, if it still runs. */
  signal(signal: NodeJS.Signals): void {
    const main = this.main()
    if (!main || !stillRunning(main.pid, main.startTime)) return
    try {
      process.kill(main.pid, signal)
    } catch {
      // Gone since.
    }
  }

  /**
   * Resolves true once the server's own process has ended (checked every `everyMs`), or false
   * when `stop` aborts first; a process never found is waited on until then.
   */
  async exited(everyMs: number, stop: AbortSignal): Promise<boolean> {
    const main = this.main()
    while (!stop.aborted) {
      if (main && !stillRunning(main.pid, main.startTime)) return true
      await new Promise((resolve) => setTimeout(resolve, everyMs).unref())
    }
    return false
  }

  /**
   * Ends whatever of the server still runs, and resolves once none of it is left: its namespace
   * (its init killed, which takes every process in it along) and every process that carries its
   * marker. Bounded: a process that will not die (uninterruptible sleep) is given up on after
   * some seconds. Called more than once, it does the work once.
   */
  end(): Promise<void> {
    this.ending ??= this.endAll()
    return this.ending
  }

  private async endAll(): Promise<void> {
    // bubblewrap's outer process passes the server's exit on (and exits) as soon as the server
    // ends, while its init may still be taking the namespace down: the init's end is what says
    // the namespace is empty, so it is waited for, not the wrapper's.
    const init = this.inNamespace()?.init
    if (init && stillRunning(init.pid, init.startTime)) {
      try {
        process.kill(init.pid, 'SIGKILL')
      } catch {
        // Gone since.
      }
      const deadline = Date.now() + INIT_GONE_MS
      while (stillRunning(init.pid, init.startTime) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    await killMarked(ofJob(this.token))
  }
}
