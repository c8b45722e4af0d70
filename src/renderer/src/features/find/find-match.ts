import { foldCase as fold } from '../../../../shared/fold-case'

/**
 * How many hits one search marks at most: a one-letter query over a long transcript would
 * otherwise build a range for every letter.
 */
export const MAX_MATCHES = 2000

/** Where `query` occurs in `text` (case-insensitive, as text, without overlaps), up to a bound. */
export function findInText(text: string, query: string): number[] {
  if (!query.trim()) return []
  const haystack = fold(text)
  const needle = fold(query)
  const hits: number[] = []
  for (let at = haystack.indexOf(needle); at >= 0 && hits.length < MAX_MATCHES;) {
    hits.push(at)
    at = haystack.indexOf(needle, at + needle.length)
  }
  return hits
}

/** A place in one of several pieces of text (the text nodes of a message). */
export interface PiecePoint {
  piece: number
  offset: number
}

/** One hit over pieces: where it starts, and where it ends (exclusive). */
export interface PieceMatch {
  start: PiecePoint
  end: PiecePoint
}

/**
 * The hits of `query` in the pieces read as one text, each placed back in its pieces, so a hit
 * that runs across formatting (a bold word inside a sentence) is found whole.
 */
export function findInPieces(pieces: readonly string[], query: string): PieceMatch[] {
  const starts: number[] = []
  let total = 0
  for (const piece of pieces) {
    starts.push(total)
    total += piece.length
  }
  // The piece holding character `at`: the last non-empty piece starting at or before it.
  const pieceOf = (at: number): number => {
    let low = 0
    let high = pieces.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((starts[mid] ?? 0) <= at) low = mid
      else high = mid - 1
    }
    while (low > 0 && (pieces[low]?.length ?? 0) === 0) low -= 1
    return low
  }
  const length = query.length
  return findInText(pieces.join(''), query).map((at) => {
    const first = pieceOf(at)
    const last = pieceOf(at + length - 1)
    return {
      start: { piece: first, offset: at - (starts[first] ?? 0) },
      end: { piece: last, offset: at + length - (starts[last] ?? 0) }
    }
  })
}
