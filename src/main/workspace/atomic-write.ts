import { randomBytes } from 'node:crypto'
import { open, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'

/**
 * Writes a file so that readers see the old content or the new, never half of it: the bytes go
 * to a temporary file beside the target, are flushed, and the temporary file is renamed over it.
 * An existing file keeps its permission bits.
 */
export async function writeFileAtomic(target: string, content: string | Buffer): Promise<void> {
  const dir = path.dirname(target)
  // Part of the name only: the whole name plus the suffix could pass the filesystem's limit.
  const stem = Array.from(path.basename(target)).slice(0, 32).join('')
  const temp = path.join(dir, `.${stem}.${randomBytes(6).toString('hex')}.tmp`)
  const existingMode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => null
  )
  const handle = await open(temp, 'wx', existingMode ?? 0o644)
  try {
    // open() applies the umask; chmod does not, so an existing file's bits survive whole.
    if (existingMode !== null) await handle.chmod(existingMode)
    await handle.writeFile(content)
    await handle.sync()
    await handle.close()
    await rename(temp, target)
  } catch (error) {
    await handle.close().catch(() => undefined)
    await rm(temp, { force: true })
    throw error
  }
}
