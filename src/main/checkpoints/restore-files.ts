import { lstat, rm, rmdir } from 'node:fs/promises'
import path from 'node:path'

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
