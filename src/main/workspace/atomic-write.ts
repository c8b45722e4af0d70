import { constants } from 'node:fs'
import { open, rename, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import { recordTemp, tempNameFor } from './temp-journal'

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants

/** The directory an atomic write happens in: a JailedDir, or a plain path (`pathDir`). */
export interface WriteDir {
  /** A path that names `name` in the directory. */
  entry(name: string): string
  /** The absolute path of `name`, as recorded for the sweep of left-over temporary files. */
  pathOf(name: string): string
  /** Throws unless the directory is still the one written to; called before the rename. */
  verify?(): Promise<void>
}

/** A directory named by its path, for files outside any jail (settings, the data directory). */
export function pathDir(dir: string): WriteDir {
  return { entry: (name) => path.join(dir, name), pathOf: (name) => path.join(dir, name) }
}

/**
 * Writes a file so that readers see the old content or the new, never half of it: the bytes go
 * to a temporary file beside the target, are flushed, and the temporary file is renamed over it.
 * An existing file keeps its permission bits.
 */
export async function writeFileAtomic(target: string, content: string | Buffer): Promise<void> {
  const existingMode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => null
  )
  await writeFileAtomicIn(
    pathDir(path.dirname(target)),
    path.basename(target),
    content,
    existingMode
  )
}

/**
 * The atomic write of `name` in `dir`, with `mode` the bits of the file it replaces (null for a
 * new file). The temporary file is created exclusively and never through a link, and it is
 * journalled while it exists, so one left by a process killed mid-write is removed at the next
 * start (see temp-journal).
 */
export async function writeFileAtomicIn(
  dir: WriteDir,
  name: string,
  content: string | Buffer,
  mode: number | null
): Promise<void> {
  const { temp, token } = tempNameFor(name)
  const record = await recordTemp(dir.pathOf(temp), token)
  try {
    const handle = await open(
      dir.entry(temp),
      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
      mode ?? 0o644
    )
    try {
      // open() applies the umask; chmod does not, so an existing file's bits survive whole.
      if (mode !== null) await handle.chmod(mode)
      await handle.writeFile(content)
      await handle.sync()
      await handle.close()
      await dir.verify?.()
      await rename(dir.entry(temp), dir.entry(name))
    } catch (error) {
      await handle.close().catch(() => undefined)
      await unlink(dir.entry(temp)).catch(() => undefined)
      throw error
    }
  } finally {
    await record.end()
  }
}
