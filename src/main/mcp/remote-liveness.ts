import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'

/** While a remote call runs, the server is asked this often whether it is still there. */
export const LIVENESS_INTERVAL_MS = 15_000
/** How long a ping may take before the server counts as gone. */
export const PING_TIMEOUT_MS = 20_000

/**
 * Watches a remote server while calls to it run. Over HTTP a call's answer comes on a stream the
 * SDK does not watch for a server that died: a cut stream is only an `onerror`, and the call
 * would wait out its 120 s timeout. So while calls run, the server is pinged now and then, and at
 * once on a transport error; one that cannot be reached is declared dead (`onDead`, which closes the
 * connection, failing the calls and starting the restart).
 */
export class RemoteLiveness {
  private running = 0
  private timer: NodeJS.Timeout | null = null
  private checking = false
  private dead = false

  constructor(
    private readonly ping: (timeoutMs: number) => Promise<unknown>,
    private readonly onDead: (why: string) => void,
    private readonly intervalMs = LIVENESS_INTERVAL_MS
  ) {}

  /** A call started; the function returned is called once it has ended. */
  begin(): () => void {
    this.running++
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.intervalMs)
      this.timer.unref()
    }
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.running--
      if (this.running === 0) this.stopTimer()
    }
  }

  /** Something went wrong on the transport: with calls running, find out now. */
  poke(): void {
    if (this.running > 0) this.check()
  }

  stop(): void {
    this.dead = true
    this.stopTimer()
  }

  private check(): void {
    if (this.checking || this.dead) return
    this.checking = true
    this.ping(PING_TIMEOUT_MS).then(
      () => {
        this.checking = false
      },
      (error: unknown) => {
        this.checking = false
        // A ping not answered in time is a busy server, not a dead one: its call keeps its own
        // timeout. Only a server that cannot be reached at all (or forgot the session) is gone.
        if (this.dead || this.running === 0 || isTimeout(error)) return
        this.stop()
        this.onDead(error instanceof Error ? error.message : String(error))
      }
    )
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout
}
