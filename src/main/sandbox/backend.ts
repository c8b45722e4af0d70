import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/** A program by name on this PATH, as a shell would find it; null when there is none. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here; the next directory.
    }
  }
  return null
}
