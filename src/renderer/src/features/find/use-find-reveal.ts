import { useMemo } from 'react'
import type { TranscriptEntry } from '../chat/transcript-reducer'
import { itemsToReveal } from './find-reveal'
import { useFind } from './find-store'

/**
 * What the open find bar needs of the transcript: at least `shown` of the newest items rendered
 * (every item with a hit), and `hold`: do not follow new content to the bottom while the person
 * is looking at a hit.
 */
export function useFindReveal(entries: readonly TranscriptEntry[]): {
  shown: number
  hold: boolean
} {
  const open = useFind((s) => s.state.open)
  const query = useFind((s) => s.state.query)
  const shown = useMemo(() => (open ? itemsToReveal(entries, query) : 0), [open, query, entries])
  return { shown, hold: open && query.trim() !== '' }
}
