import type { Node } from 'web-tree-sitter'
import { parseBash } from './bash-parser'
import { codeBuiltin } from './code-builtins'
import { optionFindings, programName } from './program-options'
import { arithmeticConcerns, commandEvaluatesArithmetic } from './shell-arithmetic'
import { CONTAINER_NODES, unmodelledConstructs } from './shell-constructs'
import { isRiskyVariable } from './risky-variables'
import { assignedName, commandChangesEnvironment, environmentChanges } from './shell-environment'
import { shortSource, token, type Token } from './shell-token'
import { unwrap } from './wrappers'

export { token, type Token }

/** A simple command the shell would run, with its argv as far as it can be known. */
export interface SimpleCommand {
  argv: Token[]
  /** Why matching this command cannot be trusted (each makes it at least `prompt`). */
  concerns: string[]
  /**
   * Options of its program that no rule for it covers (program-options.ts): an allow rule is
   * not relied on for this command, and the mode decides, as for a write by redirection.
   */
  uncovered: string[]
  /** The command as written, for messages. */
  source: string
}

/** A redirection that opens a path; descriptor copies and closes are not listed. */
export interface Redirection {
  /** As written, for messages: `> out.txt`. */
  source: string
  target: Token
  access: 'read' | 'write'
}

export interface ShellAnalysis {
  commands: SimpleCommand[]
  /** Concerns about the whole line (a parse error, a change to PATH). */
  concerns: string[]
  /** Every path the line opens by redirection, to be judged against the project folder. */
  redirections: Redirection[]
  /** A `cd`, `pushd` or `popd` is on the line: a relative path may not be in the project folder. */
  changesFolder: boolean
  /** Each `$(…)`, backtick or `<(…)` as written: their commands run first, and are listed too. */
  substitutions: string[]
}

// Shells whose `-c` script the judge parses as bash, and shells whose syntax it does not parse
// (`zsh -c 'ls *(e:…:)'` runs code from a glob qualifier; fish and csh are other languages).
const SHELLS = new Set(['bash', 'sh', 'dash', 'ash'])
const OTHER_SHELLS = new Set(['zsh', 'ksh', 'mksh', 'pdksh', 'yash', 'fish', 'csh', 'tcsh', 'posh'])
const FOLDER_CHANGERS = new Set(['cd', 'pushd', 'popd'])

/**
 * Every simple command a bash line would run — across `;`, `&&`, `||`, `|`, newlines, subshells,
 * loops, functions, here-documents and command or process substitutions (in words and in
 * redirections alike) — each with what can be known of its argv; every path it opens by
 * redirection; and every reason the line cannot be judged by its words alone.
 */
export async function analyzeShell(script: string): Promise<ShellAnalysis> {
  const tree = await parseBash(script)
  const analysis: ShellAnalysis = {
    commands: [],
    concerns: [],
    redirections: [],
    changesFolder: false,
    substitutions: []
  }
  if (tree.rootNode.hasError) {
    analysis.concerns.push('the command does not parse as bash')
  }
  analysis.concerns.push(...treeConcerns(tree.rootNode))
  await walk(tree.rootNode, analysis, 0)
  tree.delete()
  return analysis
}

const MAX_DEPTH = 8

/**
 * What a parsed script does to the shell itself (changed variables, arithmetic on values), and
 * the constructs whose commands the judge cannot find.
 */
function treeConcerns(root: Node): string[] {
  return [...environmentChanges(root), ...arithmeticConcerns(root), ...unmodelledConstructs(root)]
}

async function walk(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  switch (node.type) {
    case 'command':
      return command(node, [], out, depth)
    case 'redirected_statement':
      return redirected(node, out, depth)
    case 'heredoc_redirect':
      return heredoc(node, out, depth)
    case 'file_redirect': {
      const words = await redirect(node, out, depth)
      if (words.length > 0)
        out.concerns.push(`the words after \`${node.text}\` belong to no command`)
      return
    }
    case 'command_substitution':
    case 'process_substitution':
      out.substitutions.push(node.text)
      for (const child of node.namedChildren) if (child) await walk(child, out, depth)
      return
  }
  if (CONTAINER_NODES.has(node.type) || node.type === 'ERROR') {
    for (const child of node.namedChildren) if (child) await walk(child, out, depth)
    return
  }
  // Anything else that holds commands (an assignment's value, an expansion's default) is
  // searched for substitutions.
  await substitutions(node, out, depth)
}

/**
 * A statement with redirections after it. A redirection takes one word; tree-sitter hands the
 * words after it (`git >/dev/null push`) to the redirection, but bash gives them to the command.
 */
async function redirected(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  const body = node.childForFieldName('body')
  const words: Node[] = []
  for (const child of node.childrenForFieldName('redirect')) {
    if (child?.type === 'file_redirect') words.push(...(await redirect(child, out, depth)))
    else if (child) await walk(child, out, depth)
  }
  if (body?.type === 'command') {
    return command(body, words, out, depth, words.length > 0 ? node.text : body.text)
  }
  if (words.length > 0) {
    out.concerns.push(
      `the words after a redirection of \`${shortSource(node.text)}\` belong to no command`
    )
  }
  if (body) await walk(body, out, depth)
}

/** `<<EOF`: the rest of its line can hold more commands, and its body substitutions. */
async function heredoc(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  for (const child of node.namedChildren) {
    if (!child || child.type === 'heredoc_start' || child.type === 'heredoc_end') continue
    if (child.type === 'heredoc_body') await substitutions(child, out, depth)
    else await walk(child, out, depth)
  }
}

/**
 * One simple command: its words (with `trailing`, the words tree-sitter gave a redirection after
 * it), its redirections, and whatever it says about the rest of the line (a `cd`, a changed
 * PATH). A literal `bash -c` script is judged in its place.
 */
async function command(
  node: Node,
  trailing: readonly Node[],
  out: ShellAnalysis,
  depth: number,
  source = node.text
): Promise<void> {
  const simple: SimpleCommand = { argv: [], concerns: [], uncovered: [], source }
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'variable_assignment') {
      const name = assignedName(child)
      if (isRiskyVariable(name)) {
        simple.concerns.push(`\`${name}=\` changes how the command runs`)
      }
      await substitutions(child, out, depth)
    } else if (child.type === 'file_redirect') {
      for (const word of await redirect(child, out, depth)) await argument(word, simple, out, depth)
    } else if (child.type === 'herestring_redirect' || child.type === 'heredoc_redirect') {
      await walk(child, out, depth)
    } else {
      await argument(child, simple, out, depth)
    }
  }
  for (const word of trailing) await argument(word, simple, out, depth)

  const changed = commandChangesEnvironment(simple.argv, simple.source)
  if (changed) out.concerns.push(changed)
  const evaluated = commandEvaluatesArithmetic(simple.argv, simple.source)
  if (evaluated) out.concerns.push(evaluated)
  if (changesFolder(simple.argv)) out.changesFolder = true

  // Judged as what really runs, behind `nohup`, `env`, `builtin`, `xargs` and the like.
  const inner = unwrap(simple.argv)
  simple.concerns.push(...inner.concerns)
  const name = inner.argv[0]
  if (!name?.known) {
    simple.concerns.push('the command name is an expansion, so what runs is not known')
    out.commands.push(simple)
    return
  }
  const builtin = codeBuiltin(inner.argv)
  if (builtin) simple.concerns.push(builtin)
  options(inner.argv, simple, out)
  const shell = programName(name.text)
  if (OTHER_SHELLS.has(shell)) {
    simple.concerns.push(
      `\`${name.text}\` runs a script in a shell whose syntax the judge does not parse as bash`
    )
  } else if (SHELLS.has(shell) && (await nestedShell(inner.argv, simple, out, depth))) {
    // The shell itself only runs its literal script, whose commands are now judged instead;
    // what was said of the shell (a risky variable before it) still stands. A wrapper a rule
    // must name (`sudo bash -c …`) is still judged as a command of its own.
    out.concerns.push(...simple.concerns)
    if (inner.ruled !== inner.argv) out.commands.push({ ...simple, concerns: [], uncovered: [] })
    return
  }
  out.commands.push(simple)
}

/**
 * The options of the program that runs which no rule for it covers (see program-options.ts): a
 * write to a path it names is judged like a redirection; anything else leaves the command to the
 * mode whatever the rules say (in a sandbox, it runs confined like any program the mode allows).
 */
function options(argv: readonly Token[], simple: SimpleCommand, out: ShellAnalysis): void {
  const program = argv[0]?.known ? argv[0].text : ''
  for (const found of optionFindings(argv)) {
    const source = `${programName(program)} ${found.option}`
    if (found.writes) {
      out.redirections.push({ source, target: found.writes, access: 'write' })
    } else {
      simple.uncovered.push(
        `in \`${shortSource(simple.source)}\`, \`${found.option}\` ${found.why}, which no rule for ${programName(program)} covers`
      )
    }
  }
}

async function argument(
  node: Node,
  simple: SimpleCommand,
  out: ShellAnalysis,
  depth: number
): Promise<void> {
  const target = node.type === 'command_name' ? (node.namedChild(0) ?? node) : node
  simple.argv.push(token(target))
  await substitutions(target, out, depth)
}

function changesFolder(argv: readonly Token[]): boolean {
  const [first, second] = argv
  if (!first?.known) return false
  if (FOLDER_CHANGERS.has(first.text)) return true
  return ['builtin', 'command'].includes(first.text) && second?.known === true
    ? FOLDER_CHANGERS.has(second.text)
    : false
}

/**
 * `bash -c 'literal'` runs its script: its commands are judged instead (true). A script file,
 * standard input or a dynamic script cannot be seen, which is a concern on the shell (false).
 * Options end at the first word that is not one; with `-c`, that word is the script.
 */
async function nestedShell(
  argv: readonly Token[],
  simple: SimpleCommand,
  out: ShellAnalysis,
  depth: number
): Promise<boolean> {
  let command = false
  let at = 1
  for (; at < argv.length; at++) {
    const word = argv[at]
    if (!word?.known) break
    if (word.text === '--' || word.text === '-') {
      at++
      break
    }
    if (!/^[-+]/.test(word.text)) break
    if (/^[-+][oO]$|^--(rcfile|init-file)$/.test(word.text)) at++
    else if (/^-[A-Za-z]*c/.test(word.text)) command = true
  }
  if (!command) {
    simple.concerns.push('a shell reading a script file or standard input runs unseen commands')
    return false
  }
  const script = argv[at]
  if (!script?.known) {
    simple.concerns.push('`-c` is given a script that is not a literal string')
    return false
  }
  if (depth >= MAX_DEPTH) {
    simple.concerns.push('shells nested too deeply to follow')
    return false
  }
  const tree = await parseBash(script.text)
  if (tree.rootNode.hasError) out.concerns.push('the `-c` script does not parse as bash')
  out.concerns.push(...treeConcerns(tree.rootNode))
  await walk(tree.rootNode, out, depth + 1)
  tree.delete()
  return true
}

/**
 * Records the path a redirection opens, searches it for substitutions, and returns the words
 * after its target, which are arguments of the command. Copying or closing a descriptor
 * (`2>&1`, `>&-`) opens nothing.
 */
async function redirect(node: Node, out: ShellAnalysis, depth: number): Promise<Node[]> {
  const operator = node.children
    .filter((c) => c && !c.isNamed)
    .map((c) => c?.text ?? '')
    .join('')
  const [destination, ...words] = node.childrenForFieldName('destination').filter(isNode)
  if (!destination) return words
  await substitutions(destination, out, depth)
  // `< <(cmd)` and `> >(cmd)` open a pipe to a command, which is judged as one.
  if (destination.type === 'process_substitution') return words
  const target = token(destination)
  const copies = operator === '>&' || operator === '<&'
  if (copies && target.known && /^(\d+-?|-)$/.test(target.text)) return words
  const reads = operator === '<' || operator === '<&'
  out.redirections.push({ source: node.text, target, access: reads ? 'read' : 'write' })
  return words
}

/** Finds the commands inside a word: `$(…)`, backticks and `<(…)` run before the word is used. */
async function substitutions(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    await walk(node, out, depth)
    return
  }
  for (const child of node.namedChildren) if (child) await substitutions(child, out, depth)
}

function isNode(node: Node | null): node is Node {
  return node !== null
}
