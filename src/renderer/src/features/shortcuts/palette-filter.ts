/** Anything the command palette lists: it is found by its label. */
export interface PaletteEntry {
  label: string
}

const WORD_START = 5
const RUN = 4
const SUBSTRING = 3

function isWordStart(text: string, at: number): boolean {
  return at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1] ?? '')
}

/**
 * How well `query` fits `label`: null unless every character of the query occurs in the label
 * in order (case-insensitive); higher when they start words, follow one another, or the query is
 * a plain part of the label. Characters are compared as text, never as a pattern.
 */
export function fuzzyScore(label: string, query: string): number | null {
  const text = label.toLowerCase()
  const needle = query.trim().toLowerCase()
  if (!needle) return 0
  let score = 0
  let from = 0
  let previous = -2
  for (const char of needle) {
    const at = text.indexOf(char, from)
    if (at < 0) return null
    score += 1
    if (isWordStart(text, at)) score += WORD_START
    if (at === previous + 1) score += RUN
    previous = at
    from = at + char.length
  }
  const whole = text.indexOf(needle)
  if (whole >= 0) score += needle.length * SUBSTRING + (isWordStart(text, whole) ? WORD_START : 0)
  return score
}

/** The entries that fit `query`, best first; ties keep the order they were given in. */
export function filterPalette<T extends PaletteEntry>(entries: readonly T[], query: string): T[] {
  if (!query.trim()) return [...entries]
  return entries
    .map((entry, index) => ({ entry, index, score: fuzzyScore(entry.label, query) }))
    .filter((scored): scored is { entry: T; index: number; score: number } => scored.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((scored) => scored.entry)
}
