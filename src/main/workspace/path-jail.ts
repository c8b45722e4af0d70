import { lstat, readlink, realpath } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import path from 'node:path'

export type JailResult = { ok: true; path: string } | { ok: false; message: string }

/** What a tool means to do at a path: only reading may follow it into the spill directory. */
export type PathAccess = 'read' | 'write'

export interface PathJailOptions {
  /**
   * The session's spill directory (it need not exist yet): the one place outside the project
   * folder that may be read, so the model can see the rest of an output that was cut.
   */
  spillDir?: string
}

const MAX_LINK_HOPS = 40

/**
 * Keeps every path a tool touches inside the project folder. A path is joined to the root,
 * normalised, and its nearest existing ancestor canonicalised (following symlinks, dangling ones
 * included) before containment is checked, so `..`, absolute paths and links cannot leave it.
 */
export class PathJail {
  readonly root: string
  readonly spillDir: string | null
  /** Other folders only to be read (a loaded skill of the person's own, with its files). */
  private readonly readDirs = new Set<string>()

  constructor(root: string, options: PathJailOptions = {}) {
    this.root = realpathSync(path.resolve(root))
    this.spillDir = options.spillDir ? path.resolve(options.spillDir) : null
  }

  async resolve(requested: string, access: PathAccess = 'write'): Promise<JailResult> {
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
      if (access === 'read' && (await this.inSpillDir(canonical))) {
        return { ok: true, path: canonical }
      }
      if (access === 'read' && (await this.inReadDir(canonical))) {
        return { ok: true, path: canonical }
      }
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

  /**
   * The path as the model should see it: relative to the project folder, or absolute for a
   * file in the spill directory (the one place outside it a path can lead).
   */
  display(absolute: string): string {
    if (!this.contains(absolute)) return absolute
    const relative = path.relative(this.root, absolute)
    return relative === '' ? '.' : relative.split(path.sep).join('/')
  }

  /** Lets tools read (never write) inside `dir`, which lies outside the project folder. */
  allowRead(dir: string): void {
    this.readDirs.add(path.resolve(dir))
  }

  private async inReadDir(canonical: string): Promise<boolean> {
    for (const dir of this.readDirs) {
      const real = await canonicalize(dir, 0).catch(() => null)
      if (real === null) continue
      if (canonical === real || canonical.startsWith(real + path.sep)) return true
    }
    return false
  }

  private async inSpillDir(canonical: string): Promise<boolean> {
    if (!this.spillDir) return false
    // Canonicalised like any request: it may not exist yet, or sit behind a link.
    const dir = await canonicalize(this.spillDir, 0).catch(() => null)
    return dir !== null && canonical.startsWith(dir + path.sep)
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
