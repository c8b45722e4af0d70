import { constants } from 'node:fs'
import { realpath } from 'node:fs/promises'
import path from 'node:path'
import { JailedDir, JailRefusal } from '../workspace/jailed-dir'

/** A folder of skill drafts or learned skills that cannot be used as it stands, in words. */
export class SkillFolderError extends Error {}

/**
 * Opens `<root>/<relative>` by descriptor, one name at a time and never through a link, so what
 * is read or written is the real folder of that name in the project and nowhere a link would
 * lead (another skill folder, the person's home). With `create`, missing folders are made.
 * Null when it does not exist (and `create` is false).
 */
export async function openProjectDir(
  root: string,
  relative: string,
  create: boolean
): Promise<JailedDir | null> {
  const real = await realpath(root).catch(() => null)
  if (real === null) {
    throw new SkillFolderError(`the project folder ${root} no longer exists; open it again`)
  }
  const shown = relative.split(path.sep).join('/')
  try {
    const walk = await JailedDir.walk(real, relative.split(path.sep), create)
    if (walk.kind === 'open') return walk.dir
    if (walk.kind === 'missing') return null
    throw new SkillFolderError(`part of \`${shown}\` is a file, not a folder; move it away first`)
  } catch (error) {
    if (!(error instanceof JailRefusal)) throw error
    throw new SkillFolderError(
      `\`${shown}\` is reached through a link (or changed while it was opened); skill drafts are only read from and written to real folders in the project, so replace the link with a folder`
    )
  }
}

/**
 * The text of the regular file `name` in `dir`, never through a link; null when there is none,
 * and an error above `maxBytes`.
 */
export async function readSmallFile(
  dir: JailedDir,
  name: string,
  maxBytes: number
): Promise<string | null> {
  const handle = await dir
    .openFile(name, constants.O_RDONLY | constants.O_NONBLOCK)
    .catch((error: unknown) => {
      if (error instanceof JailRefusal) {
        throw new SkillFolderError(`${name} is a link; a skill draft never is`)
      }
      return null
    })
  if (handle === null) return null
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) return null
    if (stats.size > maxBytes) {
      throw new SkillFolderError(`${name} is larger than ${Math.round(maxBytes / 1024)} KiB`)
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}
