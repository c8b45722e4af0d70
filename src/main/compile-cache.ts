import { lstatSync, mkdirSync } from 'node:fs'
import module from 'node:module'
import os from 'node:os'
import path from 'node:path'

/**
 * Turns on V8's compile cache for every module this process loads from here on, where the
 * runtime has it (Node 22.1 and later, so Electron 42; Node 20 has not, and starts without it).
 * A start spends more of its time compiling the bundle and its packages than running them; with
 * the cache, a start after the first reads the compiled code back instead. Node keys it by file
 * contents and V8 version. Call it first thing in an entry, before it loads the rest.
 */
export function enableCompileCache(): void {
  const nodeModule = module as { enableCompileCache?: (directory?: string) => unknown }
  if (!nodeModule.enableCompileCache) return
  try {
    const folder = compileCacheFolder()
    if (folder) nodeModule.enableCompileCache(folder)
  } catch {
    // A cache that cannot be set up (a read-only temp folder) only costs the speed it would give.
  }
}

/**
 * Where the compiled code is kept: a folder of this user's in the temp folder that no one else
 * can write, or null when the one there is not that (another user made it first, or it is a
 * link). What is read back from it is run as it is, so Node's default, one folder in the shared
 * temp folder for everyone, would let another user of the machine plant code in this one.
 */
export function compileCacheFolder(base: string = os.tmpdir()): string | null {
  const uid = process.getuid?.()
  const folder = path.join(base, `mecatl-compile-cache-${uid ?? 'user'}`)
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const stat = lstatSync(folder)
  if (!stat.isDirectory()) return null
  // Windows has no such owner and mode; its temp folder is the user's own.
  if (process.platform !== 'win32' && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return null
  return folder
}
