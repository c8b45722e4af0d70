import { useMemo } from 'react'
import { itemsWithHits, type FindableEntry } from './find-reveal'
import { useFind } from './find-store'

const NONE: number[] = []

/**
 * What the open find bar needs of the transcript: `pinned`, the items holding a hit, rendered
 * even when off screen so find can read and reveal them, and `hold`: do not follow new content
 * to the bottom while the person is looking at a hit.
 */
export function useFindReveal(entries: readonly FindableEntry[]): {
  pinned: number[]
  hold: boolean
} {
  const open = useFind((s) => s.state.open)
  const query = useFind((s) => s.state.query)
  const pinned = useMemo(
    () => (open ? itemsWithHits(entries, query) : NONE),
    [open, query, entries]
  )
  return { pinned, hold: open && query.trim() !== '' }
}
