import { lstat, rm, rmdir } from 'node:fs/promises'
import path from 'node:path'
import type { FileChange } from '../../shared/checkpoints'
import { literal } from './shadow-format'
import type { Staging } from './shadow-stage'

/**
 * Something other than a folder is at `file` in the folder. A folder in the way is git's to
 * replace, and so is a link standing for a parent folder: what it leads to is not the folder's.
 */
export async function presentFile(workspace: string, file: string): Promise<boolean> {
  for (let dir = path.dirname(file); dir !== '.' && dir !== ''; dir = path.dirname(dir)) {
    const parent = await lstat(path.join(workspace, dir)).catch(() => null)
    if (!parent?.isDirectory()) return false
  }
  const info = await lstat(path.join(workspace, file)).catch(() => null)
  return info !== null && !info.isDirectory()
}

/** A file a restore takes away, and the folders that held only it. */
export async function removeCreated(workspace: string, file: string): Promise<void> {
  await rm(path.join(workspace, file), { force: true })
  let dir = path.dirname(file)
  while (dir !== '.' && dir !== '') {
    const removed = await rmdir(path.join(workspace, dir)).then(
      () => true,
      () => false
    )
    if (!removed) break
    dir = path.dirname(dir)
  }
}

/**
 * What of `changes` a restore may put back. A file left out now (too big, ignored, unreadable) is
 * absent from the folder's tree, so it reads as deleted: put back, its current bytes would be
 * lost with no copy to undo to. It is left as it is.
 */
export async function restorable(
  workspace: string,
  skipped: ReadonlyMap<string, string>,
  changes: FileChange[]
): Promise<FileChange[]> {
  const kept: FileChange[] = []
  for (const change of changes) {
    if (skipped.has(change.path)) continue
    if (change.change === 'deleted' && (await presentFile(workspace, change.path))) continue
    kept.push(change)
  }
  return kept
}

/**
 * Writes `back` as they are at checkpoint `id` and removes `created`, in the folder and in the
 * store's index: the index is then the folder after the restore.
 */
export async function putBackFiles(
  { git, workspace }: Staging,
  id: string,
  created: readonly string[],
  back: readonly string[]
): Promise<void> {
  for (const file of created) await removeCreated(workspace, file)
  if (back.length > 0) {
    await git(['checkout', id, '--pathspec-from-file=-', '--pathspec-file-nul'], {
      input: literal(back)
    })
  }
  if (created.length > 0) {
    await git(['update-index', '--force-remove', '-z', '--stdin'], { input: created.join('\0') })
  }
}
