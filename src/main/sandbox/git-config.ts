/**
 * A copy of the person's git settings (`~/.gitconfig`, `~/.config/git/config`) fit for a
 * confined command: only sections known to hold preferences (who commits, colours, aliases, how
 * to diff and merge), never credential helpers, http headers, include files or tokens. Built
 * from an allowlist of sections, so a section nobody reviewed stays out; a value or an address
 * carrying a user and password (`https://user:token@host`) is left out wherever it appears.
 * A file that does not parse gives nothing at all rather than a guess.
 */

/** Sections that say how git behaves, never whom it authenticates as. */
const KEPT_SECTIONS = new Set([
  'user',
  'author',
  'committer',
  'core',
  'color',
  'alias',
  'diff',
  'difftool',
  'merge',
  'mergetool',
  'pull',
  'push',
  'init',
  'fetch',
  'rebase',
  'log',
  'status',
  'branch',
  'format',
  'advice',
  'pretty',
  'grep',
  'commit',
  'tag',
  'rerere',
  'help',
  'column',
  'blame',
  'interactive',
  'safe',
  'gc',
  'pack',
  'index',
  'feature',
  'transfer',
  'submodule',
  'apply',
  'am',
  'filter',
  'gpg',
  'url',
  'checkout',
  'clone',
  'protocol',
  'maintenance'
])

/** An address with credentials in it: `scheme://user:password@` or `scheme://token@`. */
const USERINFO = /[a-z][a-z0-9+.-]*:\/\/[^/\s@]+@/i

interface Entry {
  section: string
  subsection: string | null
  key: string
  value: string | null
}

/** The sanitized text, or null when `text` is not a git config file this parser understands. */
export function sanitizedGitConfig(text: string): string | null {
  const entries = parseGitConfig(text)
  if (entries === null) return null
  const kept = entries.filter(
    (e) =>
      KEPT_SECTIONS.has(e.section) &&
      !USERINFO.test(e.subsection ?? '') &&
      !USERINFO.test(e.value ?? '')
  )
  const lines: string[] = []
  let header = ''
  for (const entry of kept) {
    const next =
      entry.subsection === null
        ? `[${entry.section}]`
        : `[${entry.section} "${entry.subsection.replace(/[\\"]/g, (c) => `\\${c}`)}"]`
    if (next !== header) lines.push(next)
    header = next
    lines.push(entry.value === null ? `\t${entry.key}` : `\t${entry.key} = ${quoted(entry.value)}`)
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`
}

function quoted(value: string): string {
  const escaped = value.replace(/[\\"\n\t\b]/g, (c) => {
    if (c === '\n') return '\\n'
    if (c === '\t') return '\\t'
    if (c === '\b') return '\\b'
    return `\\${c}`
  })
  return `"${escaped}"`
}

/** The entries of a git config file in order, or null when a line is not git's syntax. */
export function parseGitConfig(text: string): Entry[] | null {
  const entries: Entry[] = []
  let section: string | null = null
  let subsection: string | null = null
  let at = 0
  const src = text.replace(/\r\n/g, '\n')
  while (at < src.length) {
    // Blank space, comments.
    const ch = src[at]
    if (ch === '\n' || ch === ' ' || ch === '\t') {
      at++
      continue
    }
    if (ch === '#' || ch === ';') {
      at = lineEnd(src, at)
      continue
    }
    if (ch === '[') {
      const header = parseHeader(src, at)
      if (!header) return null
      ;({ section, subsection } = header)
      at = header.end
      continue
    }
    const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(src.slice(at))
    if (!key || section === null) return null
    at += key[0].length
    while (src[at] === ' ' || src[at] === '\t') at++
    let value: string | null = null
    if (src[at] === '=') {
      const parsed = parseValue(src, at + 1)
      if (!parsed) return null
      value = parsed.value
      at = parsed.end
    } else if (at < src.length && src[at] !== '\n' && src[at] !== '#' && src[at] !== ';') {
      return null
    } else {
      at = lineEnd(src, at)
    }
    entries.push({ section, subsection, key: key[0].toLowerCase(), value })
  }
  return entries
}

function lineEnd(src: string, at: number): number {
  const end = src.indexOf('\n', at)
  return end === -1 ? src.length : end + 1
}

/** `[section]`, `[section "sub"]` or the old `[section.sub]`. */
function parseHeader(
  src: string,
  at: number
): { section: string; subsection: string | null; end: number } | null {
  const simple = /^\[([A-Za-z0-9.-]+)\][ \t]*(?:[#;][^\n]*)?(?:\n|$)/.exec(src.slice(at))
  if (simple?.[1]) {
    const [name, ...rest] = simple[1].split('.')
    if (!name) return null
    return {
      section: name.toLowerCase(),
      subsection: rest.length > 0 ? rest.join('.').toLowerCase() : null,
      end: at + simple[0].length
    }
  }
  const named = /^\[([A-Za-z0-9.-]+)[ \t]+"/.exec(src.slice(at))
  if (!named?.[1]) return null
  let i = at + named[0].length
  let sub = ''
  while (i < src.length && src[i] !== '"') {
    if (src[i] === '\n') return null
    if (src[i] === '\\') i++
    sub += src[i] ?? ''
    i++
  }
  const close = /^"\][ \t]*(?:[#;][^\n]*)?(?:\n|$)/.exec(src.slice(i))
  if (!close) return null
  return { section: named[1].toLowerCase(), subsection: sub, end: i + close[0].length }
}

/** A value after `=`: quotes, escapes, line continuations and a trailing comment. */
function parseValue(src: string, at: number): { value: string; end: number } | null {
  let value = ''
  let inQuotes = false
  let pendingSpace = ''
  let i = at
  while (i < src.length && (src[i] === ' ' || src[i] === '\t')) i++
  for (; i < src.length; i++) {
    const c = src[i]
    if (c === '\n') {
      if (inQuotes) return null
      return { value, end: i + 1 }
    }
    if (!inQuotes && (c === '#' || c === ';')) return { value, end: lineEnd(src, i) }
    if (!inQuotes && (c === ' ' || c === '\t')) {
      pendingSpace += c
      continue
    }
    if (pendingSpace) {
      value += pendingSpace
      pendingSpace = ''
    }
    if (c === '"') {
      inQuotes = !inQuotes
      continue
    }
    if (c === '\\') {
      const next = src[i + 1]
      i++
      if (next === '\n') continue
      if (next === 'n') value += '\n'
      else if (next === 't') value += '\t'
      else if (next === 'b') value += '\b'
      else if (next === '\\' || next === '"') value += next
      else return null
      continue
    }
    value += c
  }
  if (inQuotes) return null
  return { value, end: src.length }
}
