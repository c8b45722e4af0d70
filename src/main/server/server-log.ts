/** Where the browser server reports what went wrong with a request or a frame, one line each. */
export type ServerLog = (line: string) => void

export interface RateLimitOptions {
  /** Lines written per window; more are counted, not written. 20 unless told. */
  limit?: number
  /** 60 s unless told. */
  windowMs?: number
  /** The clock (tests pass their own). */
  now?: () => number
}

export interface RateLimitedLog {
  log: ServerLog
  /** Writes the count of lines held back, if any (on close). */
  flush(): void
}

/**
 * A log that a flood of bad requests cannot turn into a flood of lines: `limit` per window, then
 * one line saying how many more there were. A peer that can send garbage can also fill a disk or
 * a terminal, so what it costs us to hear it must stay bounded too.
 */
export function rateLimitedLog(sink: ServerLog, options: RateLimitOptions = {}): RateLimitedLog {
  const limit = options.limit ?? 20
  const windowMs = options.windowMs ?? 60_000
  const now = options.now ?? Date.now
  let windowStart = now()
  let written = 0
  let held = 0

  const write = (line: string): void => {
    try {
      sink(line)
    } catch {
      // A log that cannot be written must not become the crash it was meant to report.
    }
  }
  const flush = (): void => {
    if (held > 0) write(`browser mode: ${held} more problem(s) like these were not logged`)
    held = 0
  }

  return {
    log(line) {
      const at = now()
      if (at - windowStart >= windowMs) {
        flush()
        windowStart = at
        written = 0
      }
      if (written < limit) {
        written++
        write(`browser mode: ${line}`)
      } else {
        held++
      }
    },
    flush
  }
}
