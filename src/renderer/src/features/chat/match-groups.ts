import type { GrepMatch } from '../../../../shared/domain'

/** A piece of a line: a hit of the search or the text between hits. */
export interface Segment {
  text: string
  hit: boolean
}

/**
 * Cuts `text` into plain and hit segments from [start, end) ranges, which may come unsorted,
 * overlapping or partly out of bounds.
 */
export function highlightSegments(
  text: string,
  ranges: ReadonlyArray<readonly [number, number]>
): Segment[] {
  const merged: [number, number][] = []
  const sorted = ranges
    .map(([start, end]): [number, number] => [
      Math.max(0, Math.min(start, text.length)),
      Math.max(0, Math.min(end, text.length))
    ])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0])
  for (const range of sorted) {
    const previous = merged.at(-1)
    if (previous && range[0] <= previous[1]) previous[1] = Math.max(previous[1], range[1])
    else merged.push(range)
  }
  const segments: Segment[] = []
  let at = 0
  for (const [start, end] of merged) {
    if (start > at) segments.push({ text: text.slice(at, start), hit: false })
    segments.push({ text: text.slice(start, end), hit: true })
    at = end
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), hit: false })
  return segments
}

export interface FileMatches {
  path: string
  matches: GrepMatch[]
}

/** Matches grouped by file, files in the order they first appear, lines in their order. */
export function groupByFile(matches: readonly GrepMatch[]): FileMatches[] {
  const groups = new Map<string, GrepMatch[]>()
  for (const match of matches) {
    const group = groups.get(match.path)
    if (group) group.push(match)
    else groups.set(match.path, [match])
  }
  return [...groups].map(([path, list]) => ({ path, matches: list }))
}

/** The first `max` matches, still grouped: later files drop out, the last kept may be cut short. */
export function firstMatches(groups: readonly FileMatches[], max: number): FileMatches[] {
  const kept: FileMatches[] = []
  let left = max
  for (const group of groups) {
    if (left <= 0) break
    kept.push({ path: group.path, matches: group.matches.slice(0, left) })
    left -= group.matches.length
  }
  return kept
}
