/**
 * How long a host waits, when it quits, for the core to stop: running turns cancelled and
 * recorded, jobs ended with everything they started (a stubborn one gets SIGKILL 1.5 s after
 * SIGTERM), MCP servers closed, the database closed. Past it the host exits anyway, so a stop
 * that hangs never keeps a quit from happening.
 */
export const STOP_BOUND_MS = 5_000

/** How a stop ended: done, given up at the bound, or failed. */
export type StopOutcome =
  { kind: 'stopped' } | { kind: 'timed-out'; boundMs: number } | { kind: 'failed'; error: unknown }

/**
 * A stop that runs `dispose` at most once: every call, however many quits and signals arrive,
 * waits for the same stop and hears the same outcome, at the latest after `boundMs`.
 */
export function coreStopper(
  dispose: () => Promise<void>,
  boundMs: number = STOP_BOUND_MS
): () => Promise<StopOutcome> {
  let stopping: Promise<StopOutcome> | null = null
  return () => (stopping ??= stopWithin(dispose, boundMs))
}

async function stopWithin(dispose: () => Promise<void>, boundMs: number): Promise<StopOutcome> {
  let timer: NodeJS.Timeout | undefined
  // Not unref'd: a stop that waits on nothing the event loop holds must still end at the bound,
  // not by the process running out of work and exiting as if all had gone well.
  const bound = new Promise<StopOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed-out', boundMs }), boundMs)
  })
  const done = begin(dispose).then(
    (): StopOutcome => ({ kind: 'stopped' }),
    (error: unknown): StopOutcome => ({ kind: 'failed', error })
  )
  try {
    return await Promise.race([done, bound])
  } finally {
    clearTimeout(timer)
  }
}

/** Starts the stop now, a synchronous throw included as a failure. */
function begin(dispose: () => Promise<void>): Promise<void> {
  try {
    return dispose()
  } catch (error) {
    return Promise.reject(error)
  }
}

/** What went wrong with a stop, in words for the person; null when it stopped cleanly. */
export function stopProblem(outcome: StopOutcome): string | null {
  switch (outcome.kind) {
    case 'stopped':
      return null
    case 'timed-out':
      return (
        `stopping took longer than ${formatBound(outcome.boundMs)}, so Mecatl quit without ` +
        'waiting for it; a job or MCP server may still be running (on Linux the next start ends ' +
        'what jobs left behind)'
      )
    case 'failed': {
      const error = outcome.error
      return `stopping failed: ${error instanceof Error ? error.message : String(error)}`
    }
  }
}

function formatBound(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`
}
