import { parse } from 'yaml'

export type FrontMatter =
  { ok: true; data: Record<string, unknown>; body: string } | { ok: false; error: string }

const opening = /^\uFEFF?---[ \t]*\n/

/**
 * Splits a Markdown file into its YAML front matter and body. Windows line endings and a missing
 * final newline are accepted; a file without front matter has empty data. A block that is opened
 * but never closed, or is not a YAML mapping, is an error the person can fix.
 */
export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/\r\n?/g, '\n')
  if (!opening.test(text)) return { ok: true, data: {}, body: text.replace(/^\uFEFF/, '') }
  const start = text.indexOf('\n') + 1
  const close = /^---[ \t]*$/m
  const rest = text.slice(start)
  const end = close.exec(rest)
  if (!end) return { ok: false, error: 'the front matter opened with --- is never closed' }
  const yamlText = rest.slice(0, end.index)
  const body = rest.slice(end.index + end[0].length).replace(/^\n/, '')
  let data: unknown
  try {
    data = parse(yamlText)
  } catch (error) {
    const message =
      error instanceof Error
        ? (error.message.split('\n')[0] ?? '').replace(/:\s*$/, '')
        : String(error)
    return { ok: false, error: `the front matter is not valid YAML: ${message}` }
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'the front matter must be a YAML mapping (key: value lines)' }
  }
  return { ok: true, data: data as Record<string, unknown>, body }
}
