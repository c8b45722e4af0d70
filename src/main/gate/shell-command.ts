import type { Node } from 'web-tree-sitter'
import { parseBash } from './bash-parser'

/** One token of a command line: its text when the shell's value of it is known. */
export type Token = { known: true; text: string } | { known: false; source: string }

/** A simple command the shell would run, with its argv as far as it can be known. */
export interface SimpleCommand {
  argv: Token[]
  /** Why matching this command cannot be trusted (each makes it at least `prompt`). */
  concerns: string[]
  /** The command as written, for messages. */
  source: string
}

export interface ShellAnalysis {
  commands: SimpleCommand[]
  /** Concerns about the whole line (a parse error, a redirection to a file). */
  concerns: string[]
}

// Variables that change what a program loads or runs: a prefix like `GIT_SSH=x git fetch` is
// not the `git fetch` a rule allowed.
const RISKY_VARIABLE =
  /^(GIT_\w*|LD_\w*|DYLD_\w*|PATH|BASH_ENV|ENV|BASH_FUNC_\w*|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|PERLLIB|RUBY\w*|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|HOME|EDITOR|VISUAL|PAGER|GIT|SSH_\w*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS)$/
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh'])
const UNRESOLVABLE_BUILTINS = new Set(['eval', 'exec', 'source', '.', 'trap', 'alias'])
const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'do_group',
  'negated_command',
  'redirected_statement',
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

/**
 * Every simple command a bash line would run — across `;`, `&&`, `||`, `|`, newlines, subshells,
 * loops, functions and command or process substitutions — each with what can be known of its
 * argv, and every reason the line cannot be judged by its words alone.
 */
export async function analyzeShell(script: string): Promise<ShellAnalysis> {
  const tree = await parseBash(script)
  const analysis: ShellAnalysis = { commands: [], concerns: [] }
  if (tree.rootNode.hasError) {
    analysis.concerns.push('the command does not parse as bash')
  }
  await walk(tree.rootNode, analysis, 0)
  tree.delete()
  return analysis
}

const MAX_DEPTH = 8

async function walk(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  if (node.type === 'command') {
    await command(node, out, depth)
    return
  }
  if (node.type === 'file_redirect') redirect(node, out)
  if (node.type === 'variable_assignment') await substitutions(node, out, depth)
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    for (const child of node.namedChildren) if (child) await walk(child, out, depth)
    return
  }
  if (CONTAINERS.has(node.type) || node.type === 'ERROR') {
    for (const child of node.namedChildren) if (child) await walk(child, out, depth)
    return
  }
  // Anything else that holds commands (an expansion's default value, say) is searched too.
  await substitutions(node, out, depth)
}

async function command(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  const simple: SimpleCommand = { argv: [], concerns: [], source: node.text }
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'variable_assignment') {
      const name = child.childForFieldName('name')?.text ?? ''
      if (RISKY_VARIABLE.test(name)) {
        simple.concerns.push(`\`${name}=\` changes how the command runs`)
      }
      await substitutions(child, out, depth)
    } else if (child.type === 'file_redirect') {
      redirect(child, out)
    } else if (child.type === 'herestring_redirect' || child.type === 'heredoc_redirect') {
      await substitutions(child, out, depth)
    } else {
      const target = child.type === 'command_name' ? (child.namedChild(0) ?? child) : child
      simple.argv.push(token(target))
      await substitutions(target, out, depth)
    }
  }
  const name = simple.argv[0]
  if (!name?.known) {
    simple.concerns.push('the command name is an expansion, so what runs is not known')
  } else if (UNRESOLVABLE_BUILTINS.has(name.text)) {
    simple.concerns.push(`\`${name.text}\` runs code that the rule cannot see`)
  } else if (SHELLS.has(baseName(name.text)) && (await nestedShell(simple, out, depth))) {
    // The shell itself only runs its literal script, whose commands are now judged instead;
    // what was said of the shell (a risky variable before it) still stands.
    out.concerns.push(...simple.concerns)
    return
  }
  out.commands.push(simple)
}

/**
 * `bash -c 'literal'` runs its script: its commands are judged instead (true). A script file,
 * standard input or a dynamic script cannot be seen, which is a concern on the shell (false).
 */
async function nestedShell(
  simple: SimpleCommand,
  out: ShellAnalysis,
  depth: number
): Promise<boolean> {
  const flag = simple.argv.findIndex((t, i) => i > 0 && t.known && /^-\w*c\w*$/.test(t.text))
  if (flag < 0) {
    simple.concerns.push('a shell reading a script file or standard input runs unseen commands')
    return false
  }
  const script = simple.argv[flag + 1]
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
  await walk(tree.rootNode, out, depth + 1)
  tree.delete()
  return true
}

/** Output to a file writes it; only /dev/null and descriptor copies are known to be harmless. */
function redirect(node: Node, out: ShellAnalysis): void {
  const operator = node.children.find((c) => c && !c.isNamed)?.text ?? ''
  const destination = node.childForFieldName('destination')
  const target = destination ? token(destination) : null
  if (operator.startsWith('<') && operator !== '<>') return
  if (operator === '>&' || operator === '<&' || operator === '>&-') {
    if (target?.known && /^\d+-?$|^-$/.test(target.text)) return
  }
  if (target?.known && target.text === '/dev/null') return
  out.concerns.push(`\`${node.text}\` writes output to a file`)
}

/** Finds the commands inside a word: `$(…)`, backticks and `<(…)` run before the word is used. */
async function substitutions(node: Node, out: ShellAnalysis, depth: number): Promise<void> {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    await walk(node, out, depth)
    return
  }
  for (const child of node.namedChildren) if (child) await substitutions(child, out, depth)
}

/** The shell's value of a word, when it does not depend on the environment or other commands. */
export function token(node: Node): Token {
  switch (node.type) {
    case 'word':
    case 'number':
      return /[$`]/.test(node.text)
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
      let text = ''
      for (const part of node.namedChildren) {
        if (!part) continue
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

function unescapeWord(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/g, '$1')
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1')
}

function baseName(command: string): string {
  return command.slice(command.lastIndexOf('/') + 1)
}
