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
 * How many of the newest items must be rendered for every item that mentions `query` to be on
 * the page (the transcript renders only a window of them, see transcript-window); 0 for none.
 */
export function itemsToReveal(items: readonly { item: TranscriptItem }[], query: string): number {
  const needle = query.replace(MARKS, '')
  if (!needle.trim()) return 0
  const first = items.findIndex(
    ({ item }) => findInText(searchable(item).replace(MARKS, ''), needle).length > 0
  )
  return first < 0 ? 0 : items.length - first
}
