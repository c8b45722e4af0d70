import type { StoreDatabase } from './database'
import { queryTerms } from './memory-query'

/**
 * The most memories one search ranks. BM25 scores every memory that holds a query word, and
 * weighs each word by reading its whole list of memories; past a few thousand that is where
 * the time goes (about 2 µs a memory: a word in 90,000 of 100,000 costs ~150 ms), so words that
 * common are left out when rarer ones are given (as Lucene's CommonTermsQuery does).
 */
export const SEARCH_CANDIDATES = 2000

/** The entry ids one owner's memories occupy (see the memory migration). */
export interface IdRange {
  readonly low: number
  readonly high: number
}

export interface RankedRow {
  id: number
  score: number
  snippet: string
}

/**
 * `bm25`: best first. `newest`: every word of the query is in more than SEARCH_CANDIDATES
 * memories, so the newest holding any of them come first.
 */
export interface RankedRows {
  rows: RankedRow[]
  ranking: 'bm25' | 'newest'
  /** Query words left out because they are too common to tell memories apart. */
  dropped: string[]
}

const SNIPPET = `snippet(memory_fts, 1, char(2), char(3), '…', 24) AS snippet`

/** BM25-ranked live entries of one owner matching the words of `query`. */
export function rankMemories(
  db: StoreDatabase,
  range: IdRange,
  query: string,
  options: { limit: number; prefix?: boolean }
): RankedRows {
  const terms = queryTerms(query, { prefix: options.prefix })
  if (terms.length === 0) return { rows: [], ranking: 'bm25', dropped: [] }
  const matches = (expression: string): number =>
    db
      .prepare<[string, number, number, number], { n: number }>(
        `SELECT count(*) AS n FROM (SELECT rowid FROM memory_fts
         WHERE memory_fts MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?)`
      )
      .get(expression, range.low, range.high, SEARCH_CANDIDATES + 1)?.n ?? 0
  const any = (phrases: readonly string[]): string => phrases.join(' OR ')

  let kept = terms.map((t) => t.phrase)
  let dropped: string[] = []
  if (matches(any(kept)) > SEARCH_CANDIDATES) {
    // Rarest words first, as many as the budget holds; counting stops at the budget, so a
    // common word costs no more to count than a rare one.
    const counted = terms
      .map((term) => ({ term, n: terms.length === 1 ? Infinity : matches(term.phrase) }))
      .sort((a, b) => a.n - b.n)
    if ((counted[0]?.n ?? Infinity) > SEARCH_CANDIDATES) {
      return { rows: newest(db, range, any(kept), options.limit), ranking: 'newest', dropped }
    }
    let total = 0
    kept = []
    for (const { term, n } of counted) {
      if (total + n > SEARCH_CANDIDATES) dropped.push(term.word)
      else {
        kept.push(term.phrase)
        total += n
      }
    }
    dropped = terms.map((t) => t.word).filter((word) => dropped.includes(word))
  }
  const rows = db
    .prepare<[string, number, number, number], RankedRow>(
      `SELECT rowid AS id, rank AS score, ${SNIPPET} FROM memory_fts
       WHERE memory_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ?`
    )
    .all(any(kept), range.low, range.high, options.limit)
  return { rows, ranking: 'bm25', dropped }
}

function newest(db: StoreDatabase, range: IdRange, expression: string, limit: number): RankedRow[] {
  return db
    .prepare<[string, number, number, number], RankedRow>(
      `SELECT rowid AS id, 0 AS score, ${SNIPPET} FROM memory_fts
       WHERE memory_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ?`
    )
    .all(expression, range.low, range.high, limit)
}
