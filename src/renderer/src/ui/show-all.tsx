import type { JSX } from 'react'
import { formatCount } from '../lib/format'

/** Rows shown before "Show all": a long diff or list would bury the rest of the transcript. */
export const FOLDED_ROWS = 40

/** The button that unfolds what FOLDED_ROWS held back. */
export function ShowAll({
  hidden,
  noun,
  onClick
}: {
  hidden: number
  noun: string
  onClick: () => void
}): JSX.Element {
  return (
    <button type="button" className="result-more" onClick={onClick} data-testid="show-all-button">
      Show {formatCount(hidden)} more {noun}
    </button>
  )
}
