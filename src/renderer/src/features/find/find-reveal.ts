import type { TranscriptItem } from '../../../../shared/domain'
import { findInText } from './find-match'

/** Markdown's marks, which the transcript shows as formatting rather than as text. */
const MARKS = /[*_`~#>|]/g

function searchable(item: TranscriptItem): string {
  if (item.kind === 'user' || item.kind === 'assistant') return item.text
  // Cards show parts of their call; the whole of it is a superset, which only shows more.
  return JSON.stringify(item)
}

/**
 * How many items holding a hit are rendered at most beyond those on screen: a one-letter query
 * over a long session would otherwise render all of it. The newest are kept.
 */
export const MAX_PINNED = 300

/** A transcript entry as find reads it: its item. */
export interface FindableEntry {
  item: TranscriptItem
}

/**
 * The indexes of the items that mention `query`, oldest first, at most MAX_PINNED (the newest).
 * The transcript renders only the rows on screen (it is virtualized); these rows are rendered
 * too, so find can read its hits from the page and scroll to any of them.
 */
export function itemsWithHits(items: readonly FindableEntry[], query: string): number[] {
  const needle = query.replace(MARKS, '')
  if (!needle.trim()) return []
  const hits: number[] = []
  for (let i = items.length - 1; i >= 0 && hits.length < MAX_PINNED; i--) {
    const entry = items[i]
    if (entry && findInText(searchable(entry.item).replace(MARKS, ''), needle).length > 0) {
      hits.push(i)
    }
  }
  return hits.reverse()
}
