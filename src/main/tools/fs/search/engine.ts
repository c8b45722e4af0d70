import type { FileMatches, SearchSpec } from './file-searcher'
import type { IgnoreRules } from './ignore-rules'

/** Limits for a search of the whole project, so a huge tree cannot run on and on. */
export interface ScanBudget {
  files: number
  bytes: number
}

/** One Grep, as both engines (ripgrep and the Node one) take it. */
export interface SearchRequest {
  /** The project folder, canonical. */
  root: string
  /** What to search, relative to the root (`''` for all of it). */
  scope: { kind: 'directory' | 'file'; path: string }
  spec: SearchSpec
  /** The project's ignore rules, or null to search ignored files too. */
  rules: IgnoreRules | null
  /** The `glob` scope: which files (relative to the root) to search. */
  accepts: (relative: string) => boolean
  /** The glob as ripgrep may pre-filter with it (it is checked again); null to not pass it. */
  ripgrepGlob: string | null
  budget: ScanBudget | null
  /** Stop once this many matching lines are found. */
  matchCeiling: number
  signal: AbortSignal
}

/** What a search found; `stopped` says which limit ended it early, if any. */
export interface SearchResult {
  files: FileMatches[]
  matchingLines: number
  filesScanned: number
  bytesScanned: number
  stopped: 'files' | 'bytes' | 'matches' | null
  engine: 'ripgrep' | 'node'
}

/** Matching lines (not context lines) among some files' records. */
export function countMatches(files: readonly FileMatches[]): number {
  let count = 0
  for (const file of files) for (const line of file.lines) if (line.match) count++
  return count
}
