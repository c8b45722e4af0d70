/**
 * How many of a transcript's newest items are rendered at first. A long session (thousands of
 * events) would otherwise build thousands of Markdown blocks and cards before its first paint;
 * older items are added a window at a time as the person scrolls up.
 */
export const TRANSCRIPT_WINDOW = 150

/** The newest `shown` items, and how many older ones are left out. */
export function tailWindow<T>(
  items: readonly T[],
  shown: number
): { visible: T[]; hidden: number } {
  const hidden = Math.max(0, items.length - Math.max(0, shown))
  return { visible: items.slice(hidden), hidden }
}

/** The next window size once the person reaches the top: one window more, never past the end. */
export function widenWindow(shown: number, total: number): number {
  return Math.min(Math.max(total, shown), shown + TRANSCRIPT_WINDOW)
}
