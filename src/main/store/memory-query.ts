/** At most this many words of a query are searched for; the rest would only slow ranking. */
const MAX_TERMS = 12

/** Marks FTS5 puts around each matched term in a snippet: control characters no text uses. */
export const HIT_START = '\u0002'
export const HIT_END = '\u0003'

/** One word of a query, and the FTS5 phrase that looks for it. */
export interface QueryTerm {
  word: string
  phrase: string
}

/**
 * The words of what a person or model typed, each quoted as an FTS5 phrase so no word is read as
 * an operator or a column name. `prefix` lets the last word match as a prefix (a search box
 * while typing). Empty when the text has no word to search for.
 */
export function queryTerms(text: string, options: { prefix?: boolean } = {}): QueryTerm[] {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_TERMS)
  const last = words.length - 1
  return words.map((word, i) => ({
    word,
    phrase: `"${word}"${options.prefix && i === last ? ' *' : ''}`
  }))
}

/** Any of the words of `text` as one FTS5 expression; null when there is no word. */
export function matchExpression(text: string): string | null {
  const terms = queryTerms(text)
  return terms.length === 0 ? null : terms.map((t) => t.phrase).join(' OR ')
}

/** A snippet with its hit marks taken out, and where they were. */
export interface MarkedText {
  text: string
  ranges: [number, number][]
}

export function unmark(snippet: string): MarkedText {
  let text = ''
  const ranges: [number, number][] = []
  let start = -1
  for (const char of snippet) {
    if (char === HIT_START) start = text.length
    else if (char === HIT_END) {
      if (start >= 0 && text.length > start) ranges.push([start, text.length])
      start = -1
    } else text += char
  }
  return { text, ranges }
}

/** The snippet as the model reads it: hits in **bold**, on one line. */
export function boldHits(snippet: string): string {
  return snippet
    .replaceAll(HIT_START, '**')
    .replaceAll(HIT_END, '**')
    .replace(/\s*\n\s*/g, ' ⏎ ')
}
