import { lstatSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'

/** The repository a project folder belongs to, as a confined command is shown it. */
export interface RepositoryView {
  /**
   * Read-only inside: the repository's git folder and, for a worktree or a submodule, the
   * folders its `.git` file leads to (its own git folder and the common one). Hooks and
   * `core.fsmonitor` planted there would run later outside any sandbox, when the person runs git.
   */
  gitDirs: string[]
  /**
   * The repository's top when it is above the project folder, shown read-only so that git in a
   * subfolder sees the whole work tree (a file outside the folder is not taken for deleted).
   */
  top: string | null
}

/**
 * Finds the repository of `workspace` (the nearest `.git` at or above it). A repository whose
 * top holds `home` (a dotfiles repository in the home directory) is not shown at all: its work
 * tree is the home directory, which stays closed.
 */
export function repositoryView(workspace: string, home: string | null): RepositoryView {
  const none: RepositoryView = { gitDirs: [], top: null }
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    const found = gitFolders(dir)
    if (found) {
      if (home && contains(dir, home)) return none
      return { gitDirs: found, top: dir === workspace ? null : dir }
    }
    if (path.dirname(dir) === dir) return none
  }
}

/** The git folders `dir/.git` stands for, or null when there is none. */
function gitFolders(dir: string): string[] | null {
  const dotGit = path.join(dir, '.git')
  let stat
  try {
    stat = lstatSync(dotGit)
  } catch {
    return null
  }
  if (stat.isDirectory()) return [dotGit]
  // A `.git` that is a link to the git folder: the folder it leads to is the one git uses.
  if (stat.isSymbolicLink()) {
    try {
      const target = realpathSync(dotGit)
      return lstatSync(target).isDirectory() ? [target] : null
    } catch {
      return null
    }
  }
  if (!stat.isFile()) return null
  // A worktree or a submodule: `gitdir: <its git folder>`, which names the common one.
  try {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]
    if (!pointer) return [dotGit]
    const own = realpathSync(path.resolve(dir, pointer))
    const folders = [dotGit, own]
    try {
      const common = readFileSync(path.join(own, 'commondir'), 'utf8').trim()
      if (common) folders.push(realpathSync(path.resolve(own, common)))
    } catch {
      // Not a worktree (a submodule's folder is its own common folder).
    }
    return [...new Set(folders)]
  } catch {
    return [dotGit]
  }
}

function contains(dir: string, inner: string): boolean {
  return inner === dir || inner.startsWith(dir.endsWith('/') ? dir : `${dir}/`)
}
