/** The `@query` being typed: where it starts (the `@`), where the word ends, and the query. */
export interface MentionRange {
  start: number
  end: number
  query: string
}

const SPACE = /\s/
/** What may come right before an `@` that opens the finder: nothing, a space, an opening mark. */
const OPENERS = new Set(['(', '[', '{', '"', "'", '`', '<'])

/**
 * The `@query` the caret is in, or null. An `@` opens the finder only at the start of a word, so
 * `me@example.com` does not; the query is what lies between the `@` and the caret, and the word
 * the caret is in (up to the next space) is what a pick replaces.
 */
export function mentionAt(text: string, caret: number): MentionRange | null {
  let at = caret - 1
  while (at >= 0) {
    const char = text.charAt(at)
    if (char === '@') break
    if (SPACE.test(char)) return null
    at--
  }
  if (at < 0) return null
  const before = at === 0 ? '' : text.charAt(at - 1)
  if (before !== '' && !SPACE.test(before) && !OPENERS.has(before)) return null
  let end = caret
  while (end < text.length && !SPACE.test(text.charAt(end))) end++
  return { start: at, end, query: text.slice(at + 1, caret) }
}

/**
 * How a picked path is written in the message: `@path`, a folder with a trailing `/`; a path
 * with a space, quote or backslash in it goes in double quotes, `"` and `\` escaped with `\`,
 * so where it ends is never in doubt.
 */
export function mentionText(path: string, kind: 'file' | 'folder'): string {
  const full = kind === 'folder' ? `${path}/` : path
  if (!/[\s"\\]/.test(full)) return `@${full}`
  return `@"${full.replace(/[\\"]/g, (char) => `\\${char}`)}"`
}

/** The text with the typed `@query` replaced by `mention`, and where the caret goes after it. */
export function insertMention(
  text: string,
  range: MentionRange,
  mention: string
): { text: string; caret: number } {
  const before = text.slice(0, range.start)
  const after = text.slice(range.end)
  // A space after the mention, so the next word does not run into the path.
  const spaced = after !== '' && SPACE.test(after.charAt(0)) ? mention : `${mention} `
  const caret = before.length + (spaced === mention ? mention.length : spaced.length)
  return { text: before + spaced + after, caret }
}

/**
 * How a picked resource is written in the message: `@server:uri`, quoted as a path is when the
 * URI holds a quote or a backslash.
 */
export function resourceMentionText(server: string, uri: string): string {
  return mentionText(`${server}:${uri}`, 'file')
}

/**
 * The text with the typed `@query` replaced by a mention still being typed (`@docs:`), with no
 * space after it and the caret at its end, so the finder goes on with what follows.
 */
export function insertOpenMention(
  text: string,
  range: MentionRange,
  mention: string
): { text: string; caret: number } {
  const before = text.slice(0, range.start)
  return { text: before + mention + text.slice(range.end), caret: before.length + mention.length }
}
