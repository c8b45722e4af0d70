/**
 * Cuts a large write into pieces of at most `size` characters, never between the two halves of
 * a surrogate pair. xterm.js yields to the page between writes, not within one, so a 1 MB
 * write would hold the main thread for the whole parse; pieces keep each task short.
 */
export function writePieces(data: string, size: number): string[] {
  if (data.length <= size) return [data]
  const pieces: string[] = []
  let at = 0
  while (at < data.length) {
    let end = Math.min(data.length, at + size)
    const code = data.charCodeAt(end - 1)
    if (end < data.length && code >= 0xd800 && code <= 0xdbff) end--
    pieces.push(data.slice(at, end))
    at = end
  }
  return pieces
}
