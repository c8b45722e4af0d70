import type { GrepMatch } from '../../../../shared/domain'
import type { FileMatches } from './file-searcher'

export interface FormattedMatches {
  /** ripgrep's layout: `path:line:text` for matches, `path-line-text` for context, `--` between groups. */
  text: string
  /** The matching lines shown, for the window. */
  matches: GrepMatch[]
  shown: number
}

/** Orders files by path (code units, as Glob and ListDir do) and their lines by number. */
export function sortFiles(files: FileMatches[]): FileMatches[] {
  return files
    .map((file) => ({ ...file, lines: [...file.lines].sort((a, b) => a.line - b.line) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/**
 * Lays out sorted results as ripgrep prints them, up to `limit` matching lines (each with the
 * context lines that follow it).
 */
export function formatMatches(
  files: readonly FileMatches[],
  limit: number,
  context: number
): FormattedMatches {
  const out: string[] = []
  const matches: GrepMatch[] = []
  let shown = 0
  let previous: { path: string; line: number } | null = null
  outer: for (const file of files) {
    for (const record of file.lines) {
      if (record.match && shown >= limit) break outer
      const adjacent = previous?.path === file.path && previous.line + 1 === record.line
      if (context > 0 && previous && !adjacent) out.push('--')
      out.push(
        `${file.path}${record.match ? ':' : '-'}${record.line}${record.match ? ':' : '-'}${record.text}`
      )
      if (record.match) {
        shown++
        matches.push({
          path: file.path,
          line: record.line,
          text: record.text,
          ranges: record.ranges
        })
      }
      previous = { path: file.path, line: record.line }
    }
  }
  return { text: out.join('\n'), matches, shown }
}
