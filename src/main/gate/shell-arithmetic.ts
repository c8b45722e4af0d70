import type { Node } from 'web-tree-sitter'
import { shortSource, token, type Token } from './shell-token'
import { findingsInTree } from './shell-tree'

// Bash evaluates arithmetic recursively: when `x` holds `a[$(rm -rf ~)]`, reading it in
// `$((x))`, `((x))`, `let`, `[[ x -eq 0 ]]`, an array subscript, `${s:x}`, a `declare -i`
// variable, or a name like `a[x]` given to `read`, `printf -v` or `[ -v ]` runs that command.
// The value can come from anywhere (a file read earlier on the line), so arithmetic that reads
// a variable cannot be proven harmless. Literal numbers, and `$#`, `$?`, `$$`, `$!`, can.
const HIDDEN =
  "does arithmetic with a variable, and bash runs any command hidden in a variable's value there; a person must approve it"
const SAFE_SPECIALS = new Set(['$#', '$?', '$$', '$!'])
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const DECLARATIONS_WITH_INTEGERS = new Set(['declare', 'typeset', 'local', 'export', 'readonly'])
// A subscript that is not a plain number or `@`/`*` is arithmetic (for an indexed array).
const EVALUATED_SUBSCRIPT = /\[(?![\d\s]*\]|[@*]\])[^\]]*\]/
// Builtins whose arguments name variables, where `a[…]` is evaluated as a subscript.
const NAMING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'wait'])

/** Every place in a bash tree where arithmetic could read code from a variable's value. */
export function arithmeticConcerns(root: Node): string[] {
  return findingsInTree(root, (node) =>
    readsVariables(node) ? `\`${shortSource(node.text)}\` ${HIDDEN}` : null
  )
}

/**
 * `let`, and the builtins that take variable names (`read 'a[x]'`, `printf -v 'a[x]'`), judged
 * from their arguments.
 */
export function commandEvaluatesArithmetic(argv: readonly Token[], source: string): string | null {
  let start = 0
  while (argv[start]?.known && ['builtin', 'command'].includes(known(argv[start]))) start++
  const name = known(argv[start])
  const args = argv.slice(start + 1)
  if (name === 'let' && args.some((a) => !a.known || /[A-Za-z_]/.test(a.text))) {
    return `\`${shortSource(source)}\` ${HIDDEN}`
  }
  // printf only names a variable after -v (or joined, -vNAME); test only after -v.
  const named =
    name === 'printf' || name === 'test'
      ? flagValue(args, '-v', name === 'printf')
      : NAMING_BUILTINS.has(name)
        ? args
        : []
  if (named.some((a) => !a.known || EVALUATED_SUBSCRIPT.test(a.text))) {
    return `\`${shortSource(source)}\` ${HIDDEN}`
  }
  return null
}

/** The argument `flag` takes (`-v NAME`, or `-vNAME` where `joined`), if it is given. */
function flagValue(args: readonly Token[], flag: string, joined: boolean): Token[] {
  const at = args.findIndex(
    (a) => a.known && (a.text === flag || (joined && a.text.startsWith(flag)))
  )
  const given = args[at]
  if (at < 0 || !given?.known) return []
  if (given.text !== flag) return [{ known: true, text: given.text.slice(flag.length) }]
  const next = args[at + 1]
  return next ? [next] : []
}

function readsVariables(node: Node): boolean {
  switch (node.type) {
    case 'arithmetic_expansion':
      return mentionsVariable(node)
    case 'compound_statement':
      return node.child(0)?.text === '((' && mentionsVariable(node)
    case 'c_style_for_statement':
      return ['initializer', 'condition', 'update'].some((field) =>
        node.childrenForFieldName(field).some((part) => part !== null && mentionsVariable(part))
      )
    case 'subscript': {
      const index = node.childForFieldName('index')
      return index !== null && index.type !== 'number' && !/^[@*]$/.test(index.text)
    }
    case 'expansion':
      return substring(node)
    case 'test_command':
      return test(node)
    case 'declaration_command':
    case 'unset_command':
      return declaration(node)
    default:
      return false
  }
}

function mentionsVariable(node: Node): boolean {
  const names = node.descendantsOfType(['variable_name', 'simple_expansion', 'expansion', 'word'])
  return names.some((part) => {
    if (!part) return false
    if (part.type === 'simple_expansion') return !SAFE_SPECIALS.has(part.text)
    if (part.type === 'word')
      return /[A-Za-z_]/.test(part.text) && !/^0[xX][\da-fA-F]+$/.test(part.text)
    // A variable_name inside a `$x` already counted with it.
    return part.parent?.type !== 'simple_expansion' || !SAFE_SPECIALS.has(part.parent.text)
  })
}

/** `${s:offset:length}`: both are arithmetic. */
function substring(node: Node): boolean {
  const colon = node.children.some((c) => c && !c.isNamed && c.text === ':')
  if (!colon) return false
  return node.namedChildren.slice(1).some((part) => part !== null && part.type !== 'number')
}

/** `[[ a -eq b ]]` evaluates both sides; `-v` (in `[` too) evaluates a subscript in the name. */
function test(node: Node): boolean {
  const doubled = node.child(0)?.text === '[['
  for (const expression of node.descendantsOfType(['binary_expression', 'unary_expression'])) {
    if (!expression) continue
    const operator = expression.childForFieldName('operator')?.text ?? ''
    if (doubled && expression.type === 'binary_expression' && ARITHMETIC_TESTS.has(operator)) {
      const sides = [expression.childForFieldName('left'), expression.childForFieldName('right')]
      if (sides.some((side) => side !== null && !literalNumber(side))) return true
    }
    if (expression.type === 'unary_expression' && operator === '-v') {
      const operand = expression.namedChildren.find((c) => c?.type !== 'test_operator')
      const value = operand ? token(operand) : null
      if (!value?.known || value.text.includes('[')) return true
    }
  }
  return false
}

/** `declare -i` makes every later assignment arithmetic; `unset 'a[x]'` evaluates `x`. */
function declaration(node: Node): boolean {
  const keyword = node.child(0)?.text ?? ''
  for (const arg of node.namedChildren) {
    if (!arg || arg.type === 'variable_name' || arg.type === 'variable_assignment') continue
    const value = token(arg)
    if (!value.known) continue
    if (DECLARATIONS_WITH_INTEGERS.has(keyword) && /^-\w*i/.test(value.text)) return true
    if (EVALUATED_SUBSCRIPT.test(value.text)) return true
  }
  return false
}

function literalNumber(node: Node): boolean {
  return node.type === 'number' || SAFE_SPECIALS.has(node.text)
}

function known(value: Token | undefined): string {
  return value?.known ? value.text : ''
}
