import { GIT_FOLDER_WHY } from './git-folder'
import { mentions } from './option-scan'
import type { Token } from './shell-token'

// Which git command lines only read the repository. `.git` holds what git runs by itself
// (hooks, core.fsmonitor, filters named in config), so the sandbox mounts it read-only and a
// person must approve each command that writes there. A list of git's writing subcommands would
// miss the next one (or an alias, or a new form of an old command), so this is the other list:
// the reads, each in the forms known to change nothing; everything else counts as a write. An
// expansion where git reads its subcommand or one of its own options, or an option not known
// here, cannot be proven to read. Git run where the parser cannot see it (`xargs git`, a script,
// `make`) is not found here: the sandbox's read-only `.git` is the wall, and this only says when
// a person may open it for one command. So a read taken for a write costs a question, and a
// write taken for a read fails against that wall.

/** What a git command line does to its repository's `.git` folder. */
export type GitAccess =
  /** Proven to only read. */
  | 'read'
  /** Runs a subcommand, named as written, that is not a proven read. */
  | 'write'
  /** What git is asked to do cannot be known before the line runs (an expansion, an unknown option). */
  | 'unproven'

// Subcommands that read whatever their arguments, except for `--output` (below).
const READS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'grep',
  'blame',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'cat-file',
  'describe',
  'shortlog',
  'diff-tree',
  'diff-files',
  'diff-index',
  'for-each-ref',
  'show-ref',
  'name-rev',
  'merge-base',
  'check-ignore',
  'check-attr',
  'count-objects',
  'var',
  'version',
  'help',
  'whatchanged'
])

// git's own options, before the subcommand: those taking the next word as their value, those
// taking none, and those that print something and run no subcommand at all.
const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--attr-source'
])
const GLOBAL_VALUE_JOINED = /^--(git-dir|work-tree|namespace|config-env|attr-source)=/
const GLOBAL_FLAGS = new Set([
  '-p',
  '-P',
  '--paginate',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-optional-locks',
  '--no-advice',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs'
])
const GLOBAL_INFO = new Set([
  '--version',
  '-v',
  '--help',
  '-h',
  '--exec-path',
  '--html-path',
  '--man-path',
  '--info-path'
])

/** Whether a command name runs git: `git`, or a path to a program called git. */
export function isGitProgram(name: Token | undefined): boolean {
  return name?.known === true && (name.text === 'git' || name.text.endsWith('/git'))
}

/** What `argv` (wrappers already removed, see wrappers.ts) does to `.git`, or null when it is not git. */
export function gitAccess(argv: readonly Token[]): GitAccess | null {
  if (!isGitProgram(argv[0])) return null
  let at = 1
  while (at < argv.length) {
    const word = argv[at]
    if (!word?.known) return 'unproven'
    if (!word.text.startsWith('-')) break
    if (GLOBAL_WITH_VALUE.has(word.text)) at += 2
    else if (GLOBAL_VALUE_JOINED.test(word.text) || GLOBAL_FLAGS.has(word.text)) at += 1
    else if (GLOBAL_INFO.has(word.text)) return 'read'
    else return 'unproven'
  }
  const sub = argv[at]
  // Bare `git` (or only options) prints its usage.
  if (!sub?.known) return sub ? 'unproven' : 'read'
  return subcommandAccess(sub.text, argv.slice(at + 1))
}

/**
 * Why a person must approve a git command that may write into `.git`: `source` is the command as
 * written, `access` what `gitAccess` made of it.
 */
export function gitWriteReason(source: string, access: 'write' | 'unproven'): string {
  return access === 'write'
    ? `\`${source}\` writes into the repository's .git folder, ${GIT_FOLDER_WHY}`
    : `\`${source}\` may write into the repository's .git folder (what it asks of git is only known when it runs), ${GIT_FOLDER_WHY}`
}

function subcommandAccess(sub: string, args: readonly Token[]): GitAccess {
  // `git commit -h` prints usage before touching the repository; `--help` becomes `git help`.
  const [only] = args
  if (args.length === 1 && only?.known && (only.text === '-h' || only.text === '--help')) {
    return 'read'
  }
  if (READS.has(sub)) return readsWhatever(args)
  // Own keys only: `git constructor` is no listing of anything.
  const listing = Object.hasOwn(LISTINGS, sub) ? LISTINGS[sub] : undefined
  if (!listing) return 'write'
  if (!args.every((arg) => arg.known)) return 'unproven'
  return listing(args.map((arg) => (arg.known ? arg.text : ''))) ? 'read' : 'write'
}

/**
 * A read subcommand's arguments: `--output=<file>` (diff, log, show…), or an abbreviation of it,
 * writes a file wherever it says, `.git` included. An expansion among them (`git log $REV`) is left a read: were it that
 * option, the write would meet the sandbox's read-only `.git`, and asking a person about every
 * `git diff $(git merge-base main HEAD)` would only teach them to say yes.
 */
function readsWhatever(args: readonly Token[]): GitAccess {
  for (const arg of args) {
    if (!arg.known) continue
    if (arg.text === '--') return 'read'
    if (writesOutput(arg.text)) return 'write'
  }
  return 'read'
}

/** `--output=x`, or any abbreviation git would take for it (`--out=x`). */
function writesOutput(arg: string): boolean {
  return mentions(arg, 'output', 3)
}

type Listing = (args: readonly string[]) => boolean

// `git branch`'s and `git tag`'s listing options: those taking the next word as their value
// (git reads `--contains x` so), and the rest.
const LIST_VALUED = /^--(contains|no-contains|merged|no-merged|points-at|sort|format)$/
const LIST_OPTIONS =
  /^--(ignore-case|omit-empty|no-color|no-column|no-abbrev|(contains|no-contains|merged|no-merged|points-at|sort|format|abbrev|color|column)(=.*)?)$/
const BRANCH_OPTIONS = /^(-[arvi]+|--(list|all|remotes|verbose|show-current))$/
// What puts `git branch` in list mode, where other words are patterns (else `git branch x`
// makes a branch). Not `-l`: older git read it as --create-reflog.
const BRANCH_LISTS = /^(--list|-v+|--verbose|--(no-)?(contains|merged)(=.*)?|--points-at(=.*)?)$/
const TAG_OPTIONS = /^(-l|--list|-n\d*|-i)$/

// Subcommands that also write, and the forms of each that only list.
const LISTINGS: Record<string, Listing> = {
  branch: (args) => {
    const words = listingWords(args, BRANCH_OPTIONS)
    return words !== null && (words.length === 0 || args.some((a) => BRANCH_LISTS.test(a)))
  },
  tag: (args) =>
    args.length === 0 ||
    (listingWords(args, TAG_OPTIONS) !== null && args.some((a) => a === '-l' || a === '--list')),
  remote: (args) => args.every((a) => a === '-v' || a === '--verbose'),
  stash: ([verb, ...rest]) => (verb === 'list' || verb === 'show') && !rest.some(writesOutput),
  worktree: ([verb, ...rest]) =>
    verb === 'list' && rest.every((a) => /^(--porcelain|-v|--verbose|-z)$/.test(a)),
  config: configReads
}

/** The words of a listing that are not options, or null when an option is not a listing one. */
function listingWords(args: readonly string[], own: RegExp): string[] | null {
  const words: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (LIST_VALUED.test(arg)) i += 1
    else if (!arg.startsWith('-')) words.push(arg)
    else if (!own.test(arg) && !LIST_OPTIONS.test(arg)) return null
  }
  return words
}

// `git config`'s ways of reading: an action that reads, or the old form with one key alone.
const CONFIG_READ_ACTIONS =
  /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|--list|-l)$/
const CONFIG_OPTIONS =
  /^(--global|--system|--local|--worktree|--show-origin|--show-scope|--name-only|-z|--null|--bool|--int|--bool-or-int|--path|--expiry-date|--includes|--no-includes|--fixed-value|--(file|blob|type|default)=.*)$/
const CONFIG_WITH_VALUE = /^(-f|--file|--blob|--type|-t|--default)$/

function configReads(args: readonly string[]): boolean {
  const words: string[] = []
  let reads = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (CONFIG_READ_ACTIONS.test(arg)) reads = true
    else if (CONFIG_WITH_VALUE.test(arg)) i += 1
    else if (arg.startsWith('-')) {
      if (!CONFIG_OPTIONS.test(arg)) return false
    } else words.push(arg)
  }
  if (reads) return true
  // `git config list`, `git config get <key>` (git 2.46 on; older git refuses a key "list" or
  // "get" without a section), or `git config <section.key>`.
  const [first, ...rest] = words
  if (first === 'list') return rest.length === 0
  if (first === 'get') return rest.length === 1
  return words.length === 1 && first !== undefined && first.includes('.')
}
