import {
  IGNORED,
  NESTED_REPOSITORY,
  uncommittedRepositories,
  whyLeftOut,
  type NotCovered
} from './left-out'
import { lstat } from 'node:fs/promises'
import path from 'node:path'
import { literal, parseNul } from './shadow-format'
import { GitFailure, type GitRun } from './shadow-git'

/** What staging needs of a store: its folder, its size limit and its git. */
export interface Staging {
  workspace: string
  maxFileBytes: number
  git: (args: string[], options?: GitRun) => Promise<string>
}

/**
 * Brings the store's index in line with the folder, leaving out what may not be stored: files in
 * `skipped` stay out (unhashed) while they still may not be stored; new or changed ones since
 * `base` are checked, and added to `skipped` when they may not. Answers the files that could not
 * be read.
 */
export async function stageFolder(
  staging: Staging,
  base: string | null,
  skipped: Map<string, string>
): Promise<NotCovered[]> {
  const { git, workspace, maxFileBytes } = staging
  for (const [file] of skipped) {
    const why = await whyLeftOut(workspace, file, maxFileBytes)
    if (why) skipped.set(file, why)
    else skipped.delete(file)
  }
  const unreadable = await addAll(git, skipped)
  const candidates = parseNul(
    base
      ? await git(['diff-index', '--cached', '-z', '--name-only', '--diff-filter=AM', base])
      : await git(['ls-files', '-z', '--cached'])
  )
  const drop: string[] = []
  for (const file of candidates) {
    const why = await whyLeftOut(workspace, file, maxFileBytes)
    if (!why) continue
    skipped.set(file, why)
    drop.push(file)
  }
  if (drop.length > 0) {
    await dropFromIndex(git, drop)
  }
  return unreadable
}

/**
 * Brings only `files` up to date in the index (as `git add -A` of them would): one that is gone
 * from the folder leaves the index; one that may not be stored is left out. Files neither on
 * disk nor in the index are nothing to stage.
 */
export async function stageFiles(
  staging: Staging,
  files: readonly string[],
  skipped: Map<string, string>
): Promise<void> {
  const { git, workspace, maxFileBytes } = staging
  // The whole index is listed (git takes no pathspec file here; a list of 10,000 is quick), and
  // only when a file is gone or left out: one on disk to be stored is staged either way, and a
  // restore (which stages the files it puts back) is one git run the shorter for it.
  let indexed: Promise<Set<string>> | null = null
  const inIndex = async (file: string): Promise<boolean> => {
    indexed ??= git(['ls-files', '-z', '--cached']).then((out) => new Set(parseNul(out)))
    return (await indexed).has(file)
  }
  const wanted: string[] = []
  for (const file of files) {
    const why = await whyLeftOut(workspace, file, maxFileBytes)
    if (why) skipped.set(file, why)
    else skipped.delete(file)
    const present = await lstat(path.join(workspace, file)).then(
      () => true,
      () => false
    )
    if (why ? await inIndex(file) : present || (await inIndex(file))) wanted.push(file)
  }
  if (wanted.length === 0) return
  const left = wanted.filter((file) => skipped.has(file))
  if (left.length > 0) {
    await dropFromIndex(git, left)
  }
  const added = wanted.filter((file) => !skipped.has(file))
  if (added.length > 0) {
    await git(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      input: literal(added)
    }).catch((error: unknown) => {
      // A file `.gitignore` now leaves out is not staged: the same as a whole-folder take.
      if (error instanceof GitFailure && /ignored by one of your \.gitignore/.test(error.stderr)) {
        return ''
      }
      throw error
    })
  }
}

/**
 * What the folder's `.gitignore` files leave out, as git's own walk finds it: an ignored folder
 * is one entry (node_modules), never every file in it.
 */
export async function ignoredFiles(staging: Staging): Promise<NotCovered[]> {
  const out = await staging.git([
    'ls-files',
    '-z',
    '--others',
    '--ignored',
    '--exclude-standard',
    '--directory'
  ])
  return parseNul(out).map((file) => ({ path: file.replace(/\/$/, ''), why: IGNORED }))
}

/**
 * `git add -A` of all but what is left out; files it could not read are listed as not covered
 * instead of failing. A nested repository without a commit stops git's whole add: it is left out
 * and the add tried again (a bounded few times: each round names all that git found).
 */
async function addAll(git: Staging['git'], skipped: Map<string, string>): Promise<NotCovered[]> {
  for (let round = 0; ; round++) {
    const pathspec = ['.', ...[...skipped.keys()].map((file) => `:(exclude,literal)${file}`)]
    try {
      await git(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        input: pathspec.join('\0')
      })
      return []
    } catch (error) {
      if (!(error instanceof GitFailure)) throw error
      const nested = uncommittedRepositories(error.stderr).filter((dir) => !skipped.has(dir))
      if (nested.length > 0 && round < 3) {
        for (const dir of nested) skipped.set(dir, NESTED_REPOSITORY)
        continue
      }
      const unreadable = [...error.stderr.matchAll(/^error: open\("(.+)"\): (.+)$/gm)].map((m) => ({
        path: m[1] ?? '',
        why: `could not be read (${m[2] ?? 'error'})`
      }))
      // Anything else (a full disk, a broken store) is a failed checkpoint, never a stale one.
      if (unreadable.length === 0) throw error
      return unreadable
    }
  }
}

/**
 * Takes files out of the index alone. Literal: a big file named `:(exclude)x` or `*` takes only
 * itself out. Forced: a nested repository's entry has no file to compare with.
 */
async function dropFromIndex(git: Staging['git'], files: readonly string[]): Promise<void> {
  await git(
    [
      'rm',
      '-q',
      '-r',
      '-f',
      '--cached',
      '--ignore-unmatch',
      '--pathspec-from-file=-',
      '--pathspec-file-nul'
    ],
    { input: literal(files) }
  )
}
