/**
 * The line the window and the CLI show while a failed request waits to be tried again:
 * "Retrying in 4 s (rate limited)…". Whole seconds, rounded up, never "0 s" while it still waits.
 */
export function retryLine(waitMs: number, reason: string): string {
  return `Retrying in ${Math.max(1, Math.ceil(waitMs / 1000))} s (${reason})…`
}
