import { lstat } from 'node:fs/promises'
import path from 'node:path'
import { PathJail } from '../workspace/path-jail'
import { gitFolderReason, gitFolderTarget } from './git-folder'
import { keepsNames } from './name-keepers'
import type { Redirection, ShellAnalysis } from './shell-command'

/** What a line's redirections mean for the gate. */
export interface RedirectionVerdict {
  /** Redirections a person must approve, whatever the rules and the mode say. */
  concerns: string[]
  /** Ordinary writes into the project folder, said in words: no command rule covers them. */
  writes: string[]
  /**
   * Writes that lead into a `.git` folder, said in words: a person must approve them, and an
   * approval lets that one command write there (see git-subcommands.ts).
   */
  gitWrites: string[]
}

// Where output may go without writing anything anyone keeps.
const DISCARD = new Set(['/dev/null', '/dev/tty'])
// The command's own streams. Opening one opens again whatever its descriptor holds (Linux opens
// /proc/self/fd/N), so after `1<file` a `>/dev/stdout` writes that file: these are harmless
// only on a line that reads no file by redirection.
const STREAMS = new Set([
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/0',
  '/dev/fd/1',
  '/dev/fd/2'
])
// Bash opens these itself, as sockets, whatever the filesystem holds.
const NETWORK = /^\/dev\/(tcp|udp)\//
const ASK = 'a person must approve it'

/**
 * Sorts each path a line opens by redirection. Reading a file is harmless (a network device or a
 * path not known before the line runs is not); writing is an ordinary write only when the path
 * resolves (through links, as the path jail resolves it) inside the project folder and outside
 * any `.git` folder, and is a regular file or nothing yet. Without a project folder to judge
 * against, every write is a concern.
 */
export async function judgeRedirections(
  analysis: ShellAnalysis,
  workspace: string | undefined
): Promise<RedirectionVerdict> {
  const verdict: RedirectionVerdict = { concerns: [], writes: [], gitWrites: [] }
  let jail: PathJail | string | null = null
  const readsFile = analysis.redirections.some(
    (r) => r.access === 'read' && !(r.target.known && DISCARD.has(r.target.text))
  )
  // Another command on the line may turn the target into a link before it is opened.
  const relinker =
    analysis.commands.length > 1
      ? analysis.commands.find((command) => !keepsNames(command))
      : undefined
  for (const redirection of analysis.redirections) {
    const early = unjudgeable(redirection, analysis.changesFolder, readsFile)
    if (early !== undefined) {
      if (early !== null) verdict.concerns.push(early)
      continue
    }
    if (!workspace) {
      verdict.concerns.push(`\`${redirection.source}\` writes output to a file`)
      continue
    }
    jail ??= openJail(workspace)
    if (typeof jail === 'string') {
      verdict.concerns.push(`\`${redirection.source}\` writes a file, and ${jail}; ${ASK}`)
      continue
    }
    if (relinker) {
      verdict.concerns.push(
        `\`${redirection.source}\` writes a file, and \`${relinker.source}\` on the same line could first make that name a link (into .git, or out of the folder); ${ASK}`
      )
      continue
    }
    const judged = await judgeWrite(redirection, jail)
    const list = { ok: verdict.writes, git: verdict.gitWrites, concern: verdict.concerns }
    list[judged.kind].push(judged.says)
  }
  return verdict
}

/**
 * What can be said of a redirection without the filesystem: null when it is harmless, a concern,
 * or undefined when it is a write to a known path that must be resolved.
 */
function unjudgeable(
  redirection: Redirection,
  changesFolder: boolean,
  readsFile: boolean
): string | null | undefined {
  const { source, target, access } = redirection
  if (!target.known) {
    return access === 'read'
      ? `\`${source}\` reads from a path the shell expands (a variable, a pattern, \`~\`), which could be a network device such as /dev/tcp; ${ASK}`
      : `\`${source}\` writes to a path the shell expands (a variable, a pattern, \`~\`), so where it goes is not known before the line runs; ${ASK}`
  }
  if (DISCARD.has(target.text)) return null
  if (STREAMS.has(target.text)) {
    if (access === 'read' || !readsFile) return null
    return `\`${source}\` opens one of the command's own streams again, and a \`<\` on the line can point it at a file, which would then be written; ${ASK}`
  }
  if (NETWORK.test(target.text)) return `\`${source}\` opens a network connection; ${ASK}`
  if (access === 'read') return null
  if (target.text === '') return null
  if (changesFolder && !path.isAbsolute(target.text)) {
    return `\`${source}\` writes to a path relative to a folder that a \`cd\` on the line changes; ${ASK}`
  }
  return undefined
}

async function judgeWrite(
  redirection: Redirection,
  jail: PathJail
): Promise<{ kind: 'ok' | 'git' | 'concern'; says: string }> {
  const { source } = redirection
  const requested = redirection.target.known ? redirection.target.text : ''
  const landing = await gitFolderTarget(jail, requested)
  if (landing !== null) {
    return { kind: 'git', says: gitFolderReason(source, requested, landing, jail, 'writes into') }
  }
  const resolved = await jail.resolve(requested)
  if (!resolved.ok) {
    const outside = resolved.message.includes('outside the project folder')
    return {
      kind: 'concern',
      says: outside
        ? `\`${source}\` writes outside the project folder (${jail.root}); ${ASK}`
        : `\`${source}\` writes to a path that cannot be resolved (${resolved.message}); ${ASK}`
    }
  }
  const stats = await lstat(resolved.path).catch(() => null)
  if (stats && !stats.isFile()) {
    return {
      kind: 'concern',
      says: `\`${source}\` writes to something that is not a regular file (a folder, device, FIFO or socket); ${ASK}`
    }
  }
  // A write through a hard link changes every name of the file, one of which may be in .git.
  if (stats && stats.nlink > 1) {
    return {
      kind: 'concern',
      says: `\`${source}\` writes a file that has other names (hard links), which may lie inside .git or outside the folder; ${ASK}`
    }
  }
  const shown = jail.display(resolved.path)
  return { kind: 'ok', says: `\`${source}\` writes ${shown} in the project folder` }
}

function openJail(workspace: string): PathJail | string {
  try {
    return new PathJail(workspace)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return `the project folder ${workspace} cannot be resolved (${message})`
  }
}
