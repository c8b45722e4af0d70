/**
 * Fuzzy matching of a query against paths, scored the way fzf scores them (its "v2" alignment,
 * simplified): every query character must appear in order; a match earns more at the start of
 * a path segment, a word or a camelCase hump, and a run of consecutive matches keeps the bonus
 * its first character earned; a gap between matches costs a little, more to open than to extend.
 * The best alignment wins, not the first one found, so `core` in `src/core/core.ts` lands on the
 * file name's run rather than on scattered letters. Ties go to the shorter path.
 */

const SCORE_MATCH = 16
const GAP_START = -3
const GAP_EXTENSION = -1
const BONUS_SEGMENT = 10
const BONUS_WORD = 8
const BONUS_CAMEL = 7
const BONUS_CONSECUTIVE = 4
const FIRST_CHAR_MULTIPLIER = 2
/** Below any reachable score: "no alignment ends here". */
const NONE = -1_000_000_000

/** A path that matched, with its score. */
export interface RankedPath {
  path: string
  score: number
}

/** The same string lower-cased, one code unit per code unit, so positions line up. */
export function lowerSameLength(text: string): string {
  const lower = text.toLowerCase()
  if (lower.length === text.length) return lower
  let out = ''
  for (const unit of text) {
    const low = unit.toLowerCase()
    out += low.length === unit.length ? low : unit
  }
  return out
}

const isUpper = (code: number): boolean => code >= 65 && code <= 90
const isLower = (code: number): boolean => code >= 97 && code <= 122
const isDigit = (code: number): boolean => code >= 48 && code <= 57

/** What a match at `j` earns for where it sits in the path. */
function bonusAt(text: string, j: number): number {
  if (j === 0) return BONUS_SEGMENT
  const prev = text.charCodeAt(j - 1)
  if (prev === 47 || prev === 92) return BONUS_SEGMENT
  if (prev === 45 || prev === 95 || prev === 46 || prev === 32) return BONUS_WORD
  const cur = text.charCodeAt(j)
  if ((isLower(prev) && isUpper(cur)) || (!isDigit(prev) && isDigit(cur))) return BONUS_CAMEL
  return 0
}

/** Whether every character of `query` appears in `lower` in order: the cheap test first. */
function isSubsequence(query: string, lower: string): boolean {
  let from = 0
  for (let i = 0; i < query.length; i++) {
    const at = lower.indexOf(query.charAt(i), from)
    if (at === -1) return false
    from = at + 1
  }
  return true
}

// Scratch rows reused across calls: scoring runs per path, per keystroke.
let rows = {
  m0: new Int32Array(256),
  m1: new Int32Array(256),
  r0: new Int32Array(256),
  r1: new Int32Array(256)
}

function scratch(n: number): typeof rows {
  if (rows.m0.length < n) {
    const size = Math.max(n, rows.m0.length * 2)
    rows = {
      m0: new Int32Array(size),
      m1: new Int32Array(size),
      r0: new Int32Array(size),
      r1: new Int32Array(size)
    }
  }
  return rows
}

/**
 * The best alignment's score of a lower-cased query in a path (given with its lower-cased twin),
 * or null when it does not match; with `from`, also where each query character came from.
 */
function align(query: string, text: string, lower: string, from: Int32Array | null): number | null {
  const m = query.length
  const n = text.length
  if (m === 0) return 0
  if (m > n || !isSubsequence(query, lower)) return null
  // Nothing can match before the query's first character first appears.
  const start = lower.indexOf(query.charAt(0))
  const buffers = scratch(n)
  let prevM = buffers.m0
  let curM = buffers.m1
  let prevR = buffers.r0
  let curR = buffers.r1
  for (let i = 0; i < m; i++) {
    const q = query.charCodeAt(i)
    // The best alignment of the previous query character at k <= j - 2, gap costs paid to j.
    let gap = NONE
    let gapFrom = -1
    for (let j = start; j < n; j++) {
      if (i > 0 && j >= start + 2) {
        const twoBack = prevM[j - 2] ?? NONE
        const opened = twoBack === NONE ? NONE : twoBack + GAP_START
        const extended = gap === NONE ? NONE : gap + GAP_EXTENSION
        if (opened >= extended) {
          gap = opened
          gapFrom = j - 2
        } else {
          gap = extended
        }
      }
      if (lower.charCodeAt(j) !== q) {
        curM[j] = NONE
        continue
      }
      const bonus = bonusAt(text, j)
      if (i === 0) {
        curM[j] = SCORE_MATCH + bonus * FIRST_CHAR_MULTIPLIER
        curR[j] = bonus
        if (from) from[j] = -1
        continue
      }
      let best = NONE
      let run = bonus
      let origin = -1
      const diagonal = j > start ? (prevM[j - 1] ?? NONE) : NONE
      if (diagonal !== NONE) {
        const runBonus = prevR[j - 1] ?? 0
        best = diagonal + SCORE_MATCH + Math.max(bonus, runBonus, BONUS_CONSECUTIVE)
        run = bonus >= BONUS_WORD ? bonus : runBonus
        origin = j - 1
      }
      if (gap !== NONE && gap + SCORE_MATCH + bonus > best) {
        best = gap + SCORE_MATCH + bonus
        run = bonus
        origin = gapFrom
      }
      curM[j] = best
      curR[j] = run
      if (from) from[i * n + j] = origin
    }
    ;[prevM, curM] = [curM, prevM]
    ;[prevR, curR] = [curR, prevR]
  }
  let top = NONE
  let end = -1
  for (let j = start; j < n; j++) {
    const score = prevM[j] ?? NONE
    if (score > top) {
      top = score
      end = j
    }
  }
  if (top === NONE) return null
  if (from) from[m * n] = end
  return top
}

/** One row of the sparse table: the positions where a query character matched, and scores. */
interface SparseRow {
  pos: Int32Array
  val: Int32Array
  run: Int32Array
  count: number
}

const sparseRow = (size: number): SparseRow => ({
  pos: new Int32Array(size),
  val: new Int32Array(size),
  run: new Int32Array(size),
  count: 0
})
let sparse = { a: sparseRow(256), b: sparseRow(256) }

/**
 * The same score as the full table (`align`), computed only at the positions where each query
 * character occurs: a path has few of them, so this is the index's inner loop. The gap cost is
 * linear past its opening, so the best origin across a gap is a running maximum.
 */
function sparseAlign(query: string, text: string, lower: string): number | null {
  const m = query.length
  const n = text.length
  if (m === 0) return 0
  if (m > n || !isSubsequence(query, lower)) return null
  if (sparse.a.pos.length < n) sparse = { a: sparseRow(n * 2), b: sparseRow(n * 2) }
  let prev = sparse.a
  let cur = sparse.b
  prev.count = 0
  const first = query.charAt(0)
  for (let j = lower.indexOf(first); j !== -1; j = lower.indexOf(first, j + 1)) {
    const bonus = bonusAt(text, j)
    prev.pos[prev.count] = j
    prev.val[prev.count] = SCORE_MATCH + bonus * FIRST_CHAR_MULTIPLIER
    prev.run[prev.count] = bonus
    prev.count++
  }
  for (let i = 1; i < m; i++) {
    const q = query.charAt(i)
    cur.count = 0
    let k = 0
    // max of val[k] - pos[k] * GAP_EXTENSION over previous positions <= j - 2
    let gapBase = NONE
    const after = (prev.pos[0] ?? 0) + 1
    for (let j = lower.indexOf(q, after); j !== -1; j = lower.indexOf(q, j + 1)) {
      while (k < prev.count && (prev.pos[k] ?? n) <= j - 2) {
        const base = (prev.val[k] ?? NONE) - (prev.pos[k] ?? 0) * GAP_EXTENSION
        if (base > gapBase) gapBase = base
        k++
      }
      const bonus = bonusAt(text, j)
      let best = NONE
      let run = bonus
      if (k < prev.count && prev.pos[k] === j - 1) {
        const runBonus = prev.run[k] ?? 0
        best = (prev.val[k] ?? NONE) + SCORE_MATCH + Math.max(bonus, runBonus, BONUS_CONSECUTIVE)
        run = bonus >= BONUS_WORD ? bonus : runBonus
      }
      if (gapBase !== NONE) {
        const viaGap = gapBase + GAP_START + (j - 2) * GAP_EXTENSION + SCORE_MATCH + bonus
        if (viaGap > best) {
          best = viaGap
          run = bonus
        }
      }
      if (best === NONE) continue
      cur.pos[cur.count] = j
      cur.val[cur.count] = best
      cur.run[cur.count] = run
      cur.count++
    }
    if (cur.count === 0) return null
    ;[prev, cur] = [cur, prev]
  }
  let top = NONE
  for (let c = 0; c < prev.count; c++) top = Math.max(top, prev.val[c] ?? NONE)
  return top === NONE ? null : top
}

/** The score by the full table, as `matchPositions` aligns: the sparse one's reference. */
export function tableScore(query: string, text: string): number | null {
  return align(lowerSameLength(query), text, lowerSameLength(text), null)
}

/**
 * The highest score any path can get for a query of this length: every character in one run
 * that starts a path segment. Once the best kept all score this, a longer path cannot enter.
 */
export function bestPossibleScore(length: number): number {
  if (length === 0) return 0
  return (
    SCORE_MATCH +
    BONUS_SEGMENT * FIRST_CHAR_MULTIPLIER +
    (length - 1) * (SCORE_MATCH + BONUS_SEGMENT)
  )
}

/** Whether a lower-cased query matches a lower-cased path at all, without scoring it. */
export function matchesLowered(query: string, lower: string): boolean {
  return query.length <= lower.length && isSubsequence(query, lower)
}

/** The score of `query` in `text` (higher is better), or null when it does not match. */
export function fuzzyScore(query: string, text: string): number | null {
  return sparseAlign(lowerSameLength(query), text, lowerSameLength(text))
}

/** Which characters of `text` the best alignment of `query` uses, for highlighting. */
export function matchPositions(query: string, text: string): number[] | null {
  const q = lowerSameLength(query)
  const n = text.length
  const from = new Int32Array(q.length * n + 1)
  if (align(q, text, lowerSameLength(text), from) === null) return null
  const positions = new Array<number>(q.length)
  let j = from[q.length * n] ?? -1
  for (let i = q.length - 1; i >= 0; i--) {
    positions[i] = j
    j = from[i * n + j] ?? -1
  }
  return positions
}

/** Best first: higher score, then the shorter path, then the alphabet. */
function better(a: RankedPath, b: RankedPath): boolean {
  if (a.score !== b.score) return a.score > b.score
  if (a.path.length !== b.path.length) return a.path.length < b.path.length
  return a.path < b.path
}

/**
 * Keeps the best `limit` of what it is offered, in order, without sorting everything: a
 * one-letter query over a big tree matches nearly every path.
 */
export class TopPaths<T extends RankedPath> {
  readonly best: T[] = []
  constructor(private readonly limit: number) {}

  /** The path kept last, once `limit` are kept: what a newcomer must beat. */
  get worst(): T | undefined {
    return this.best.length < this.limit ? undefined : this.best[this.best.length - 1]
  }

  /** Whether a path with this score would be kept: asked before building the candidate. */
  admits(score: number, path: string): boolean {
    const worst = this.best.length < this.limit ? undefined : this.best[this.best.length - 1]
    return worst === undefined || better({ score, path }, worst)
  }

  offer(candidate: T): void {
    const { best } = this
    if (!this.admits(candidate.score, candidate.path)) return
    let low = 0
    let high = best.length
    while (low < high) {
      const mid = (low + high) >> 1
      const other = best[mid]
      if (other === undefined || better(candidate, other)) high = mid
      else low = mid + 1
    }
    best.splice(low, 0, candidate)
    if (best.length > this.limit) best.pop()
  }
}

/**
 * Scores a lower-cased query against one path given with its lower-cased twin: the index's
 * inner loop, which keeps both forms so nothing is lowered per keystroke.
 */
export function scoreLowered(query: string, text: string, lower: string): number | null {
  return sparseAlign(query, text, lower)
}

/** The best `limit` paths for `query`, best first. */
export function rankPaths(query: string, paths: Iterable<string>, limit: number): RankedPath[] {
  const q = lowerSameLength(query)
  const top = new TopPaths<RankedPath>(limit)
  for (const path of paths) {
    const score = sparseAlign(q, path, lowerSameLength(path))
    if (score !== null) top.offer({ path, score })
  }
  return top.best
}
