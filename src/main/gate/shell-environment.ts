import type { Node } from 'web-tree-sitter'
import { isRiskyVariable } from './risky-variables'
import { shortSource, token, type Token } from './shell-token'
import { findingsInTree } from './shell-tree'

// A change to the shell's own variables outlives the command that makes it: `PATH=/tmp; ls` runs
// whatever `ls` is in /tmp. And something always runs after the last command of a line (the
// Shell tool's exit trap calls `sleep`), so a change anywhere on a line counts, not only one
// with a command written after it. Each reason ends the same way: a person must approve it.
const LATER = 'which can change what every later command on the line runs; a person must approve it'
const DECLARATIONS_WITH_NAMEREFS = new Set(['declare', 'typeset', 'local'])

/**
 * Every change a bash tree makes to variables that decide what later commands run: standalone
 * assignments, `export`/`declare`/`typeset`/`readonly`/`local` (whatever their flags),
 * `unset`, loop variables, arithmetic and `${NAME:=…}`. Prefix assignments (`X=1 cmd`) are not
 * here: they last for their command only, which is judged with them.
 */
export function environmentChanges(root: Node): string[] {
  return findingsInTree(root, changeAt)
}

function changeAt(node: Node): string | null {
  switch (node.type) {
    case 'variable_assignment': {
      const parent = node.parent?.type
      if (parent === 'command' || parent === 'declaration_command') return null
      return risky(assignedName(node), node.text)
    }
    case 'declaration_command':
    case 'unset_command':
      return declaration(node)
    case 'for_statement':
      return risky(node.childForFieldName('variable')?.text ?? '', shortSource(node.text))
    case 'arithmetic_expansion':
      return arithmetic(node, node.text)
    case 'compound_statement':
      return node.child(0)?.text === '((' ? arithmetic(node, node.text) : null
    case 'c_style_for_statement':
      return arithmetic(node, shortSource(node.text))
    case 'expansion': {
      const assigns = node.children.some((c) => c && !c.isNamed && /^:?=$/.test(c.text))
      const name = node.namedChildren.find((c) => c?.type === 'variable_name')?.text ?? ''
      return assigns ? risky(name, node.text) : null
    }
    default:
      return null
  }
}

/**
 * Builtins that assign variables or change what a name runs, judged from their arguments:
 * `read PATH`, `printf -v PATH`, `mapfile`, `getopts`, `let`, `hash -p`, `enable`.
 */
export function commandChangesEnvironment(argv: readonly Token[], source: string): string | null {
  let start = 0
  while (argv[start]?.known && ['builtin', 'command'].includes(text(argv[start]))) start++
  const name = argv[start]
  if (!name?.known) return null
  const args = argv.slice(start + 1)
  switch (name.text) {
    case 'read':
    case 'mapfile':
    case 'readarray':
      return args.some((a) => !a.known || isRiskyVariable(a.text)) ? named(source) : null
    case 'getopts':
      return nameToken(args[1], source)
    case 'printf': {
      const at = args.findIndex((a) => a.known && a.text.startsWith('-v'))
      if (at < 0) return null
      const flag = text(args[at])
      return flag === '-v' ? nameToken(args[at + 1], source) : risky(flag.slice(2), source)
    }
    case 'let':
      return args.some((a) => !a.known || mentionsRisky(a.text)) ? named(source) : null
    case 'hash':
      return args.some((a) => !a.known || /^-\w*p/.test(a.text))
        ? `\`${source}\` sets which program a command name runs, ${LATER}`
        : null
    case 'enable':
      return `\`${source}\` switches shell builtins on or off or loads new ones, ${LATER}`
    default:
      return null
  }
}

/** `export`, `declare`, `typeset`, `readonly`, `local` and `unset`, whatever their flags. */
function declaration(node: Node): string | null {
  const keyword = node.child(0)?.text ?? ''
  let options = true
  for (const arg of node.namedChildren) {
    if (!arg) continue
    if (arg.type === 'variable_name') {
      const reason = risky(arg.text, node.text)
      if (reason) return reason
      continue
    }
    if (arg.type === 'variable_assignment') {
      const reason = risky(assignedName(arg), node.text)
      if (reason) return reason
      continue
    }
    const value = token(arg)
    if (!value.known) {
      return `\`${node.text}\` names a variable that is not known before it runs, ${LATER}`
    }
    if (options && value.text === '--') {
      options = false
      continue
    }
    if (options && /^[-+]/.test(value.text)) {
      // A nameref makes a later plain assignment (`ref=/tmp`) change whatever variable it names.
      if (DECLARATIONS_WITH_NAMEREFS.has(keyword) && /^-\w*n/.test(value.text)) {
        return `\`${node.text}\` makes one name stand for another variable, ${LATER}`
      }
      continue
    }
    const reason = risky(value.text.split('=')[0] ?? '', node.text)
    if (reason) return reason
  }
  return null
}

function arithmetic(node: Node, source: string): string | null {
  const names = node.descendantsOfType('variable_name')
  const found = names.find((n) => n && isRiskyVariable(n.text))
  return found ? risky(found.text, source) : null
}

/** The variable an assignment sets: `PATH` for `PATH=x`, `PATH+=x` and `PATH[0]=x`. */
export function assignedName(node: Node): string {
  const name = node.childForFieldName('name')
  if (name?.type === 'subscript') return name.childForFieldName('name')?.text ?? name.text
  return name?.text ?? ''
}

function risky(name: string, source: string): string | null {
  return isRiskyVariable(name) ? `\`${source}\` changes ${name}, ${LATER}` : null
}

function nameToken(name: Token | undefined, source: string): string | null {
  if (!name) return null
  return name.known ? risky(name.text, source) : named(source)
}

function named(source: string): string {
  return `\`${source}\` may set a variable such as PATH or IFS, ${LATER}`
}

function mentionsRisky(expression: string): boolean {
  return (expression.match(/[A-Za-z_]\w*/g) ?? []).some(isRiskyVariable)
}

function text(value: Token | undefined): string {
  return value?.known ? value.text : ''
}
