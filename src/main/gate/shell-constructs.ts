import type { Node } from 'web-tree-sitter'
import { shortSource } from './shell-token'
import { findingsInTree } from './shell-tree'

// The judge can only vouch for the commands it found. Bash runs code in more places than the
// grammar shows as commands: a prompt expansion of a value (`${x@P}`), an indirect name whose
// value holds a subscript (`${!x}`), a pattern the parser leaves as text (`${x#$(cmd)}`), a
// backtick inside backticks, a substitution in a here-document body the parser did not split
// out. So this is a list of what is understood, not of what is bad: a node type, an expansion
// operator or a text the judge does not positively know asks a person, in every mode. A grammar
// update that adds a construct asks about it until someone teaches the judge what it does.
const ASK = 'so the command it may run cannot be judged; a person must approve it'

/**
 * Node types that hold statements (lists, pipelines, compound statements, loops, functions): the
 * walk of shell-command.ts goes through them to the commands inside. The judge follows them all.
 */
export const CONTAINER_NODES: ReadonlySet<string> = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'do_group',
  'negated_command',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'test_command',
  'variable_assignments'
])

/** Named node types whose commands and words the judge follows (see shell-command.ts). */
const UNDERSTOOD = new Set([
  ...CONTAINER_NODES,
  'comment',
  'ERROR',
  'test_operator',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'variable_assignment',
  'declaration_command',
  'unset_command',
  'command',
  'command_name',
  'redirected_statement',
  'file_redirect',
  'file_descriptor',
  'heredoc_redirect',
  'herestring_redirect',
  'heredoc_start',
  'heredoc_body',
  'heredoc_content',
  'heredoc_end',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'expansion',
  'simple_expansion',
  'subscript',
  'variable_name',
  'special_variable_name',
  'word',
  'number',
  'string',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'concatenation',
  'array',
  'brace_expression',
  'regex',
  'extglob_pattern'
])

// The operators of `${…}` that only pick or reshape a value: defaults, patterns, case, length,
// substrings (their arithmetic is judged in shell-arithmetic.ts) and the listings `${!a[@]}`,
// `${!pre*}`. Bare `${!name}` (indirect) and transformations other than `@Q @U @u @L @a` are not.
const EXPANSION_TOKENS = new Set(
  '${ } # ## % %% / // /# /% ^ ^^ , ,, : :- - := = :? ? :+ + ! * @ [ ]'.split(' ')
)
const HARMLESS_TRANSFORMS = new Set(['Q', 'U', 'u', 'L', 'a'])

/** Words the shell expands that still hold a substitution the parser left as text. */
const HIDDEN_SUBSTITUTION = /`|\$\(|\$\[/
const TEXT_NODES = new Set([
  'word',
  'number',
  'regex',
  'extglob_pattern',
  'string_content',
  'heredoc_content'
])

/** Every construct in a bash tree whose effect the judge cannot vouch for, said in words. */
export function unmodelledConstructs(root: Node): string[] {
  return [...new Set(findingsInTree(root, (node) => concernAt(node) ?? skipped(node, root)))]
}

/**
 * Text inside a node that none of its children covers: the parser dropped it (`python3 - <<EOF`
 * loses its `-`), so the shell sees a word the judge did not. Only blanks and line
 * continuations may lie between the parts of a construct.
 */
function skipped(node: Node, root: Node): string | null {
  // A here-document's body is text, the parts the parser splits out of it aside.
  if (node.type === 'ERROR' || node.type === 'heredoc_body' || node.childCount === 0) return null
  let at = node.startIndex
  for (const child of node.children) {
    if (!child) continue
    const gap = root.text.slice(at - root.startIndex, child.startIndex - root.startIndex)
    if (!/^(\s|\\\r?\n)*$/.test(gap)) {
      return `\`${shortSource(gap.trim())}\` in \`${shortSource(node.text)}\` is text the parser skipped, so what the shell does with it is not known; a person must approve it`
    }
    at = Math.max(at, child.endIndex)
  }
  return null
}

function concernAt(node: Node): string | null {
  const shown = `\`${shortSource(node.text)}\``
  if (!UNDERSTOOD.has(node.type)) {
    return `${shown} is a bash construct (${node.type}) the judge does not model, ${ASK}`
  }
  switch (node.type) {
    case 'expansion':
      return expansion(node, shown)
    case 'command_substitution':
      if (node.text.startsWith('$((')) {
        return `${shown} is arithmetic the parser read as a command, ${ASK}`
      }
      if (node.text.startsWith('`') && node.text.slice(1, -1).includes('\\')) {
        return `${shown} escapes characters inside backticks (a nested backtick or \`\\$\` runs another substitution), ${ASK}`
      }
      return translated(node, shown)
    case 'heredoc_body':
      return heredocBody(node, shown)
    case 'command':
    case 'concatenation':
    case 'string':
    case 'array':
    case 'variable_assignment':
    case 'file_redirect':
    case 'herestring_redirect':
      return translated(node, shown)
    default:
      if (!TEXT_NODES.has(node.type) || node.parent?.type === 'heredoc_body') return null
      return HIDDEN_SUBSTITUTION.test(unescaped(node.text))
        ? `${shown} holds a substitution the parser did not read as one, ${ASK}`
        : null
  }
}

function expansion(node: Node, shown: string): string | null {
  const children = node.children.filter((c): c is Node => c !== null)
  for (const [i, child] of children.entries()) {
    if (child.isNamed) continue
    const next = children[i + 1]
    if (child.text === '@' && next && !next.isNamed && /^[A-Za-z]$/.test(next.text)) {
      if (!HARMLESS_TRANSFORMS.has(next.text)) {
        return `${shown} transforms a value with \`@${next.text}\`, which can run code held in the value (\`@P\` expands it as a prompt), ${ASK}`
      }
      continue
    }
    if (/^[A-Za-z]$/.test(child.text) && children[i - 1]?.text === '@') continue
    if (!EXPANSION_TOKENS.has(child.text)) {
      return `${shown} uses the expansion operator \`${child.text}\`, which the judge does not model, ${ASK}`
    }
    if (child.text === '!' && i === 1 && !listsNames(children.slice(2))) {
      return `${shown} reads the variable named by a value, and a subscript in that value runs code, ${ASK}`
    }
  }
  return null
}

/** `${!a[@]}`, `${!a[*]}` (keys) and `${!pre*}`, `${!pre@}` (names) only list names. */
function listsNames(rest: readonly Node[]): boolean {
  const [first, second] = rest
  if (first?.type === 'subscript') {
    return /^[@*]$/.test(first.childForFieldName('index')?.text ?? '') && second?.text === '}'
  }
  return (
    first?.type === 'variable_name' && /^[@*]$/.test(second?.text ?? '') && rest[2]?.text === '}'
  )
}

/**
 * An unquoted here-document's body is expanded: the parser splits out `$(…)` and `${…}` but
 * leaves backticks and `$((…))` as text. A quoted delimiter (`<<'EOF'`) keeps it all literal.
 */
function heredocBody(node: Node, shown: string): string | null {
  const start = node.parent?.namedChildren.find((c) => c?.type === 'heredoc_start')
  if (!start || /['"\\]/.test(start.text)) return null
  const text = literalParts(node)
  return HIDDEN_SUBSTITUTION.test(unescaped(text))
    ? `${shown} is a here-document whose body holds a substitution the parser did not read as one, ${ASK}`
    : null
}

/** The body's text outside the expansions the parser split out of it. */
function literalParts(node: Node): string {
  let text = ''
  let at = node.startIndex
  for (const child of node.namedChildren) {
    if (!child || child.type === 'heredoc_content') continue
    text += `${node.text.slice(at - node.startIndex, child.startIndex - node.startIndex)} `
    at = child.endIndex
  }
  return text + node.text.slice(at - node.startIndex)
}

/** `$"…"` is looked up in a message catalog, and the translation is expanded again. */
function translated(node: Node, shown: string): string | null {
  const children = node.children
  for (const [i, child] of children.entries()) {
    if (child && !child.isNamed && child.text === '$' && children[i + 1]?.type === 'string') {
      return `${shown} holds a \`$"…"\` string, which bash translates from a message catalog and expands again, ${ASK}`
    }
  }
  return null
}

function unescaped(text: string): string {
  return text.replace(/\\[\s\S]/g, '_')
}
