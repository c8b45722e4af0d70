import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, realpath, rm, copyFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { BranchChange } from '../../../shared/domain'

const run = promisify(execFile)

/** Text shown for a file too large or not text enough to diff in the window. */
const UNSHOWN = '(binary or large file: not shown)'
const SHOWN_BYTES = 256 * 1024

/**
 * An isolated copy of a workspace for one parallel branch: a git worktree of HEAD with the
 * uncommitted changes copied in when the folder is in a git repository, else a plain copy.
 * Either way a baseline tree is written (in a private index), so what the branch changed is
 * exactly the difference from it.
 */
export interface Branch {
  /** Where the branch's child works: its path jail is rooted here. */
  readonly root: string
  /** What the branch changed since its copy was made, workspace-relative paths. */
  changes(): Promise<BranchChange[]>
  /** A unified diff of those changes, for the model. */
  patch(): Promise<string>
  /** Removes the copy (and its worktree registration); nothing of it is left. */
  remove(): Promise<void>
}

/** Runs git in one folder with extra environment (GIT_DIR, GIT_INDEX_FILE…). */
class Git {
  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv = {}
  ) {}

  async run(args: string[], input?: string): Promise<string> {
    const pending = run('git', args, {
      cwd: this.cwd,
      env: { ...process.env, ...this.env },
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8'
    })
    if (input !== undefined) pending.child.stdin?.end(input)
    return (await pending).stdout
  }

  with(env: NodeJS.ProcessEnv): Git {
    return new Git(this.cwd, { ...this.env, ...env })
  }
}

/**
 * `git worktree add` reads the files of every worktree the repository registers and fails on one
 * that another git is still creating or removing ("failed to read .git/worktrees/tree2/commondir").
 * Parallel runs side by side meet there, so each repository's worktrees are added and removed one
 * at a time.
 */
const worktreeTurns = new Map<string, Promise<unknown>>()

function oneWorktreeAtATime<T>(top: string, work: () => Promise<T>): Promise<T> {
  const done = (worktreeTurns.get(top) ?? Promise.resolve()).then(work, work)
  const settled = done.catch(() => undefined)
  worktreeTurns.set(top, settled)
  void settled.then(() => {
    if (worktreeTurns.get(top) === settled) worktreeTurns.delete(top)
  })
  return done
}

async function gitTop(workspace: string): Promise<string | null> {
  try {
    const top = (await new Git(workspace).run(['rev-parse', '--show-toplevel'])).trim()
    await new Git(workspace).run(['rev-parse', '--verify', '-q', 'HEAD'])
    return await realpath(top)
  } catch {
    return null
  }
}

/** Makes a branch copy of `workspace` under a fresh temp directory. */
export async function createBranch(workspace: string, tempBase = os.tmpdir()): Promise<Branch> {
  const dir = await realpath(await mkdtemp(path.join(tempBase, 'mecatl-branch-')))
  const tree = path.join(dir, 'tree')
  const top = await gitTop(workspace)
  try {
    if (top) return await worktreeBranch(workspace, top, dir, tree)
    return await copyBranch(workspace, dir, tree)
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

async function worktreeBranch(
  workspace: string,
  top: string,
  dir: string,
  tree: string
): Promise<Branch> {
  const main = new Git(top)
  await oneWorktreeAtATime(top, () => main.run(['worktree', 'add', '--detach', '-q', tree, 'HEAD']))
  // The person's uncommitted work is part of what the branch starts from.
  const dirty = await main.run(['diff', 'HEAD', '--binary'])
  if (dirty.trim()) await new Git(tree).run(['apply', '--binary', '--whitespace=nowarn'], dirty)
  const untracked = (await main.run(['ls-files', '--others', '--exclude-standard', '-z']))
    .split('\0')
    .filter(Boolean)
  for (const file of untracked) {
    await mkdir(path.dirname(path.join(tree, file)), { recursive: true })
    await copyFile(path.join(top, file), path.join(tree, file))
  }
  const rel = path.relative(top, workspace)
  const git = new Git(tree)
  return tracked({
    dir,
    root: path.join(tree, rel),
    rel,
    git,
    tree,
    remove: () =>
      oneWorktreeAtATime(top, async () => {
        await main.run(['worktree', 'remove', '--force', tree]).catch(() => undefined)
        await rm(dir, { recursive: true, force: true })
        await main.run(['worktree', 'prune']).catch(() => undefined)
      })
  })
}

async function copyBranch(workspace: string, dir: string, tree: string): Promise<Branch> {
  await cp(workspace, tree, { recursive: true, verbatimSymlinks: true })
  // The git directory lives beside the copy, never inside it where the child could see it.
  const git = new Git(tree, { GIT_DIR: path.join(dir, 'git'), GIT_WORK_TREE: tree })
  await git.run(['init', '-q'])
  return tracked({
    dir,
    root: tree,
    rel: '',
    git,
    tree,
    remove: () => rm(dir, { recursive: true, force: true })
  })
}

interface Parts {
  dir: string
  root: string
  /** The workspace's path inside the tree ('' when it is the whole tree). */
  rel: string
  git: Git
  tree: string
  remove: () => Promise<void>
}

/** Records the baseline now; `changes` and `patch` compare the tree with it later. */
async function tracked(parts: Parts): Promise<Branch> {
  const { git, dir, rel } = parts
  // A private index each time, so the worktree's own index and the repository are untouched.
  const snapshot = async (name: string): Promise<string> => {
    const env = { GIT_INDEX_FILE: path.join(dir, name) }
    const indexed = git.with(env)
    await indexed.run(['add', '-A', '--', '.'])
    return (await indexed.run(['write-tree'])).trim()
  }
  const base = await snapshot('base-index')
  const scope = rel ? ['--', rel] : []
  const strip = (p: string): string =>
    rel ? path.posix.relative(rel.split(path.sep).join('/'), p) : p
  return {
    root: parts.root,
    remove: parts.remove,
    patch: async () => {
      const end = await snapshot('end-index')
      return git.run(['diff', '--no-renames', '--relative' + (rel ? `=${rel}` : ''), base, end])
    },
    changes: async () => {
      const end = await snapshot('end-index')
      const listed = await git.run([
        'diff-tree',
        '-r',
        '--no-renames',
        '--name-status',
        '-z',
        base,
        end,
        ...scope
      ])
      const fields = listed.split('\0').filter(Boolean)
      const changes: BranchChange[] = []
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const status = fields[i] ?? ''
        const file = fields[i + 1] ?? ''
        const before = status === 'A' ? null : await blob(git, base, file)
        const after = status === 'D' ? null : await shown(path.join(parts.tree, file))
        changes.push({ path: strip(file), before, after })
      }
      return changes
    }
  }
}

async function blob(git: Git, tree: string, file: string): Promise<string> {
  const text = await git.run(['cat-file', 'blob', `${tree}:${file}`])
  return text.length > SHOWN_BYTES || text.includes('\0') ? UNSHOWN : text
}

async function shown(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text.length > SHOWN_BYTES || text.includes('\0') ? UNSHOWN : text
}

/**
 * Applies a branch's changes to the folder it was copied from, file by file. Refuses, touching
 * nothing, when a file it changed has changed in the folder too since the branch was made.
 */
export async function applyBranch(branch: Branch, workspace: string): Promise<string[]> {
  const changes = await branch.changes()
  const clashes: string[] = []
  for (const change of changes) {
    if (change.before === UNSHOWN) continue
    const now = await readFile(path.join(workspace, change.path), 'utf8').catch(() => null)
    if (now !== change.before) clashes.push(change.path)
  }
  if (clashes.length > 0) {
    throw new Error(
      `these files changed in the folder since the branch was made: ${clashes.join(', ')}; nothing was applied. Apply the branch's diff by hand, or run the task again.`
    )
  }
  for (const change of changes) {
    const target = path.join(workspace, change.path)
    if (change.after === null) {
      await rm(target, { force: true })
    } else {
      await mkdir(path.dirname(target), { recursive: true })
      await copyFile(path.join(branch.root, change.path), target)
    }
  }
  return changes.map((c) => c.path)
}
