/**
 * Splits text into lines the way a person counts them: a final newline ends the last line
 * rather than starting an empty one, and an empty text has no lines.
 */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/** Lines numbered like `cat -n`: the number right-aligned in six columns, then a tab. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => `${String(firstLineNumber + i).padStart(6)}\t${line}`).join('\n')
}

/** `1 line`, `12 lines`: counts as a person would write them. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** How a written file is summed up in a result: `12 lines, 340 bytes`. */
export function sizeSummary(content: string): string {
  return `${plural(splitLines(content).length, 'line')}, ${plural(Buffer.byteLength(content), 'byte')}`
}

/** `34 KB`, `1.2 MB`: sizes as a person reads them in a sentence. */
export function humanBytes(count: number): string {
  if (count < 1024) return `${count} bytes`
  if (count < 1024 * 1024) return `${Math.round(count / 1024)} KB`
  return `${(count / (1024 * 1024)).toFixed(1)} MB`
}

/** A limit in bytes as a person writes it: `1 GiB`, `512 KB`. */
export function humanLimit(bytes: number): string {
  return bytes >= 2 ** 30 && bytes % 2 ** 30 === 0 ? `${bytes / 2 ** 30} GiB` : humanBytes(bytes)
}
