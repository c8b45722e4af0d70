import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { lstat, open, readdir, readlink, stat } from 'node:fs/promises'
import path from 'node:path'
import type { GitChange } from '../../shared/domain'

// Git runs programs named in a few of its own files: `.git/config` (core.fsmonitor, core.pager,
// filters, aliases), the hooks, and the attributes that pick filters and diff drivers. A command
// the agent ran can change them (unconfined, or a git write a person approved), and the person's
// next `git status` outside Mecatl would run what it put there. So each turn notes them at its
// start and names what changed at its end. This is a report, not a guard: it never fails or
// holds up a turn, and when it cannot look (an unreadable file, a slow disk) it reports nothing.

/** How long a look at the files may take before the turn goes on without a report. */
const LOOK_MS = 2000
/**
 * Files over this size are told apart by size, times and inode rather than by their bytes, so
 * five hundred large hooks cost a stat each. Config files and hook scripts are far smaller.
 */
const HASH_LIMIT = 64 * 1024
/** Hooks looked at at most, so a strange hooks folder cannot make a turn slow. */
const MAX_HOOKS = 500

/** A turn's watch on git's own files; `changes` never throws. */
export interface GitControlWatch {
  /** What changed since the watch began, by path; empty when nothing did or it cannot tell. */
  changes(): Promise<GitChange[]>
}

/** Notes git's own files of the repository `workspace` is in (none: nothing to report). */
export async function watchGitControl(workspace: string): Promise<GitControlWatch> {
  const before = await within(fingerprintGitControl(workspace))
  return {
    changes: async () => {
      if (before === null) return []
      const after = await within(fingerprintGitControl(workspace))
      return after === null ? [] : gitControlChanges(before, after)
    }
  }
}

/** Each file git may run programs from, by the path shown for it, with a fingerprint of it. */
export type GitControlFingerprint = ReadonlyMap<string, string>

/**
 * The fingerprints of the repository's git files: the config (and a worktree's own), every hook
 * but git's inert `.sample` files, `info/attributes` and the top folder's `.gitattributes`. A
 * folder in no repository has none. Throws when something cannot be read.
 */
export async function fingerprintGitControl(workspace: string): Promise<GitControlFingerprint> {
  const found = new Map<string, string>()
  const repository = await findRepository(workspace)
  if (!repository) return found
  const { gitDir, commonDir, top } = repository
  const shown = (file: string): string => {
    const relative = path.relative(workspace, file)
    const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
    return inside ? relative.split(path.sep).join('/') : file
  }
  const files = [
    path.join(commonDir, 'config'),
    path.join(commonDir, 'config.worktree'),
    path.join(gitDir, 'config.worktree'),
    path.join(commonDir, 'info', 'attributes'),
    path.join(top, '.gitattributes'),
    ...(await hooks(path.join(commonDir, 'hooks')))
  ]
  for (const file of new Set(files)) {
    const print = await fingerprint(file)
    if (print !== null) found.set(shown(file), print)
  }
  return found
}

/** What differs between two fingerprints, sorted by path. */
export function gitControlChanges(
  before: GitControlFingerprint,
  after: GitControlFingerprint
): GitChange[] {
  const changes: GitChange[] = []
  for (const [file, print] of after) {
    const was = before.get(file)
    if (was === undefined) changes.push({ path: file, change: 'created' })
    else if (was !== print) changes.push({ path: file, change: 'changed' })
  }
  for (const file of before.keys()) {
    if (!after.has(file)) changes.push({ path: file, change: 'removed' })
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

interface Repository {
  /** This worktree's git folder. */
  gitDir: string
  /** Where the config and hooks are: the main `.git` of a linked worktree, else `gitDir`. */
  commonDir: string
  /** The folder holding `.git`. */
  top: string
}

/** The repository git would use in `workspace`: the nearest `.git` at or above it. */
async function findRepository(workspace: string): Promise<Repository | null> {
  for (let dir = path.resolve(workspace); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git')
    const kind = await stat(dotGit).catch(() => null)
    if (kind?.isDirectory()) return { gitDir: dotGit, commonDir: dotGit, top: dir }
    // A linked worktree or a submodule: `.git` is a file saying `gitdir: <where>`.
    if (kind?.isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(
        (await readRegular(dotGit))?.toString() ?? ''
      )?.[1]
      if (!pointer) return null
      const gitDir = path.resolve(dir, pointer)
      const common = await readRegular(path.join(gitDir, 'commondir')).catch(() => null)
      const commonDir = common?.toString().trim()
        ? path.resolve(gitDir, common.toString().trim())
        : gitDir
      return { gitDir, commonDir, top: dir }
    }
    if (path.dirname(dir) === dir) return null
  }
}

/** Every entry under the hooks folder, nested ones too, but not git's inert samples. */
async function hooks(folder: string): Promise<string[]> {
  const found: string[] = []
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (found.length >= MAX_HOOKS) return
      const file = path.join(dir, entry.name)
      if (entry.name.endsWith('.sample')) continue
      if (entry.isDirectory() && depth < 3) await visit(file, depth + 1)
      else found.push(file)
    }
  }
  await visit(folder, 0)
  return found
}

/** What a file is, in a few bytes: its kind and mode, and its content's hash; null when absent. */
async function fingerprint(file: string): Promise<string | null> {
  const stats = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    throw error
  })
  if (!stats) return null
  const mode = (stats.mode & 0o7777).toString(8)
  if (stats.isSymbolicLink()) return `link ${await readlink(file)}`
  if (!stats.isFile()) return `other ${mode}`
  if (stats.size > HASH_LIMIT) {
    return `file ${mode} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs} ${stats.ino}`
  }
  const content = await readRegular(file)
  if (content === null) return `other ${mode}`
  return `file ${mode} ${createHash('sha256').update(content).digest('hex')}`
}

/**
 * A regular file's bytes (up to HASH_LIMIT), or null when it is something else by the time it is
 * opened. Opened without blocking, so a FIFO put in a file's place cannot hold a thread forever.
 */
async function readRegular(file: string): Promise<Buffer | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = await handle.stat()
    if (!stats.isFile() || stats.size > HASH_LIMIT) return null
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/** The look's answer, or null when it failed or took too long. */
async function within<T>(look: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LOOK_MS)
  })
  try {
    return await Promise.race([look.catch(() => null), late])
  } finally {
    clearTimeout(timer)
  }
}
