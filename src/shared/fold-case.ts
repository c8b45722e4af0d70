/**
 * Lowercase that keeps every offset: a character whose lowercase has another length ("İ" is two
 * code units lowercased) is compared as it is, so an offset found in the folded text is an offset
 * in the original. Searches that show or cut around their hits (find in the conversation, the
 * sessions search's snippets) fold with this, never with a bare toLowerCase.
 */
export function foldCase(text: string): string {
  let out = ''
  for (const char of text) {
    const lower = char.toLowerCase()
    out += lower.length === char.length ? lower : char
  }
  return out
}

/** Where `needle` first occurs in `text` from `from` on, ignoring case; -1 when it does not. */
export function indexOfFolded(text: string, needle: string, from = 0): number {
  return foldCase(text).indexOf(foldCase(needle), from)
}
