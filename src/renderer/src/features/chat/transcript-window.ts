import type { TranscriptItem } from '../../../../shared/domain'

/**
 * How many of a session's newest items the window asks for first when it opens one: enough to
 * fill the screen and some scrolling, so a session of thousands of events paints at once and
 * the rest follows in a second read.
 */
export const FIRST_SCREEN_ITEMS = 80

/**
 * The rows to render: the ones on screen (as the virtualizer reckons them) and the pinned ones
 * (rows holding a find hit, so find can read and reveal them), sorted and each once. Pinned
 * indexes outside `0..count-1` are dropped: the transcript may have changed under them.
 */
export function withPinned(
  onScreen: readonly number[],
  pinned: readonly number[],
  count = Number.POSITIVE_INFINITY
): number[] {
  if (pinned.length === 0) return [...onScreen]
  const rows = new Set(onScreen)
  for (const index of pinned) if (index >= 0 && index < count) rows.add(index)
  return [...rows].sort((a, b) => a - b)
}

/**
 * The scroll offset that keeps the reading place when content comes in above it: the same
 * distance from the bottom as before (`fromBottom` = scrollHeight − scrollTop − clientHeight).
 */
export function keepFromBottom(
  scrollHeight: number,
  fromBottom: number,
  clientHeight: number
): number {
  return Math.max(0, scrollHeight - fromBottom - clientHeight)
}

/** Roughly how tall an item is before it is measured, so the scrollbar starts near the truth. */
export function estimateRowSize(item: TranscriptItem): number {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      // About 90 characters a line at the column's width, 22 px a line, plus the row's chrome.
      return 56 + Math.ceil(item.text.length / 90) * 22
    case 'tool':
      return 52
    case 'turn-end':
      return 28
    default:
      return 40
  }
}
