import type { Node } from 'web-tree-sitter'

/** One token of a command line: its text when the shell's value of it is known. */
export type Token = { known: true; text: string } | { known: false; source: string }

/**
 * The shell's value of a word, when it does not depend on the environment, other commands or
 * the files present: expansions, unquoted patterns (`*`, `?`, `[…]`, `{a,b}`, `{a..b}`) and a
 * leading `~` all make it unknown.
 */
export function token(node: Node): Token {
  switch (node.type) {
    case 'word':
    case 'number':
      return /[$`]/.test(node.text) || expands([node])
        ? { known: false, source: node.text }
        : { known: true, text: unescapeWord(node.text) }
    case 'raw_string':
      return { known: true, text: node.text.slice(1, -1) }
    case 'string': {
      const parts = node.namedChildren
      if (parts.every((p) => p?.type === 'string_content')) {
        return { known: true, text: unescapeDoubleQuoted(node.text.slice(1, -1)) }
      }
      return { known: false, source: node.text }
    }
    case 'concatenation': {
      const parts = node.namedChildren.filter((p): p is Node => p !== null)
      if (expands(parts)) return { known: false, source: node.text }
      let text = ''
      for (const part of parts) {
        const value = token(part)
        if (!value.known) return { known: false, source: node.text }
        text += value.text
      }
      return { known: true, text }
    }
    default:
      return { known: false, source: node.text }
  }
}

/**
 * Whether the unquoted parts of a word make the shell rewrite it: a pattern matched against the
 * files present, a brace expansion, or a leading tilde. Quoted parts stand in as a plain letter,
 * as they can take part in neither; escaped characters likewise.
 */
function expands(parts: readonly Node[]): boolean {
  if (parts[0]?.type === 'word' && parts[0].text.startsWith('~')) return true
  const unquoted = parts
    .map((part) => (part.type === 'word' ? part.text : '_'))
    .join('')
    .replace(/\\[\s\S]/g, '_')
  return /[*?]|\[[^\]]*\]|\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted)
}

function unescapeWord(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/g, '$1')
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1')
}

/** A construct's first line, cut short, for messages about it. */
export function shortSource(source: string): string {
  const line = source.split('\n')[0] ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}
