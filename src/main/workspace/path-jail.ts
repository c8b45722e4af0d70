import { lstat, readlink, realpath } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import path from 'node:path'

export type JailResult = { ok: true; path: string } | { ok: false; message: string }

const MAX_LINK_HOPS = 40

/**
 * Keeps every path a tool touches inside the project folder. A path is joined to the root,
 * normalised, and its nearest existing ancestor canonicalised (following symlinks, dangling ones
 * included) before containment is checked, so `..`, absolute paths and links cannot leave it.
 */
export class PathJail {
  readonly root: string

  constructor(root: string) {
    this.root = realpathSync(path.resolve(root))
  }

  async resolve(requested: string): Promise<JailResult> {
    if (requested.includes('\0')) {
      return { ok: false, message: `the path ${JSON.stringify(requested)} contains a NUL byte` }
    }
    const joined = path.resolve(this.root, requested)
    let canonical: string
    try {
      canonical = await canonicalize(joined, 0)
    } catch (error) {
      return { ok: false, message: `cannot resolve \`${requested}\`: ${describe(error)}` }
    }
    if (!this.contains(canonical)) {
      return {
        ok: false,
        message: `\`${requested}\` is outside the project folder (${this.root}); only paths inside it can be used`
      }
    }
    return { ok: true, path: canonical }
  }

  contains(absolute: string): boolean {
    // Only the filesystem root already ends with a separator.
    const prefix = this.root.endsWith(path.sep) ? this.root : this.root + path.sep
    return absolute === this.root || absolute.startsWith(prefix)
  }

  /** The path as the model should see it: relative to the project folder. */
  display(absolute: string): string {
    const relative = path.relative(this.root, absolute)
    return relative === '' ? '.' : relative.split(path.sep).join('/')
  }
}

async function canonicalize(absolute: string, hops: number): Promise<string> {
  if (hops > MAX_LINK_HOPS) throw new Error('too many levels of symbolic links')
  try {
    return await realpath(absolute)
  } catch (error) {
    if (!isMissing(error)) throw error
  }
  // Missing, or a link whose target is missing: follow a dangling link to where it points, so a
  // write through it cannot land outside.
  const stats = await lstat(absolute).catch(() => null)
  if (stats?.isSymbolicLink()) {
    // A link's target is relative to the directory the link really lives in (which exists, as
    // lstat found the link): against the path as written, `..` would be read lexically and land
    // somewhere the system would not.
    const target = path.resolve(await realpath(path.dirname(absolute)), await readlink(absolute))
    return canonicalize(target, hops + 1)
  }
  const parent = path.dirname(absolute)
  if (parent === absolute) return absolute
  // Walking up always ends at the filesystem root, so it does not spend the link budget; deep
  // new directories would otherwise read as a link loop.
  return path.join(await canonicalize(parent, hops), path.basename(absolute))
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP'
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
