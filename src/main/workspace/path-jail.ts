import { lstat, readlink, realpath } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { JailedDir, JailRefusal, type CreateMode, type DirWalk } from './jailed-dir'
import { lengthProblem } from './path-limits'

/** A path the jail let through, with the folder it lies in. */
export interface Resolved {
  /** Canonical and absolute. */
  path: string
  /** The folder it lies in: the project folder, the spill directory or a read-only folder. */
  root: string
}

export type JailResult = ({ ok: true } & Resolved) | { ok: false; message: string }

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
    const tooLong = lengthProblem(joined, requested)
    if (tooLong) return { ok: false, message: tooLong }
    let canonical: string
    try {
      canonical = await canonicalize(joined, 0)
    } catch (error) {
      return { ok: false, message: `cannot resolve \`${requested}\`: ${describe(error)}` }
    }
    // Links on the way can make it longer than it was written.
    const tooLongNow = lengthProblem(canonical, requested)
    if (tooLongNow) return { ok: false, message: tooLongNow }
    if (!this.contains(canonical)) {
      const root = access === 'read' ? await this.readRootOf(canonical) : null
      if (root !== null) return { ok: true, path: canonical, root }
      // A path that resolves differently a moment later is being changed under us (a directory
      // swapped for a link): say so, rather than that it leads outside.
      const again = await canonicalize(joined, 0).catch(() => null)
      if (again !== canonical && again !== null && this.contains(again)) {
        return { ok: false, message: changedMessage(requested) }
      }
      return {
        ok: false,
        message: `\`${requested}\` is outside the project folder (${this.root}); only paths inside it can be used`
      }
    }
    return { ok: true, path: canonical, root: this.root }
  }

  /**
   * Opens the directory at a resolved path by descriptor, from its root down, one component at
   * a time and never through a link (see JailedDir). With `create`, missing directories are
   * made on the way (`undoable`: and can be removed again, see DirWalk), but never the root: a
   * project folder that is gone is a JailRefusal, not recreated. A spill or read-only folder that does not exist holds nothing: `missing`.
   */
  async openDir(resolved: Resolved, create: CreateMode = false): Promise<DirWalk> {
    const relative = path.relative(resolved.root, resolved.path)
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
      throw new Error(`${resolved.path} is not inside ${resolved.root}`)
    }
    const components = relative === '' ? [] : relative.split(path.sep)
    try {
      return await JailedDir.walk(
        resolved.root,
        components,
        resolved.root === this.root ? create : false
      )
    } catch (error) {
      if (error instanceof JailRefusal && error.kind === 'root-gone' && error.path !== this.root) {
        return { kind: 'missing' }
      }
      throw error
    }
  }

  /** Opens the directory that holds a resolved path (which must not be a root itself). */
  async openParent(resolved: Resolved, create: CreateMode = false): Promise<DirWalk> {
    if (resolved.path === resolved.root) throw new Error(`${resolved.path} is a root`)
    return this.openDir({ path: path.dirname(resolved.path), root: resolved.root }, create)
  }

  /** The jail's wording for a refusal, for the file tools. */
  refusalMessage(refusal: JailRefusal): string {
    if (refusal.kind === 'root-gone') {
      return `the project folder (${refusal.path}) no longer exists; nothing was done. Restore it, or open the folder it was moved to`
    }
    return changedMessage(this.display(refusal.path))
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

  /** The spill or read-only folder `canonical` lies in, if any (canonicalised on each ask). */
  private async readRootOf(canonical: string): Promise<string | null> {
    if (this.spillDir) {
      // Canonicalised like any request: it may not exist yet, or sit behind a link.
      const dir = await canonicalize(this.spillDir, 0).catch(() => null)
      if (dir !== null && canonical.startsWith(dir + path.sep)) return dir
    }
    for (const dir of this.readDirs) {
      const real = await canonicalize(dir, 0).catch(() => null)
      if (real === null) continue
      if (canonical === real || canonical.startsWith(real + path.sep)) return real
    }
    return null
  }
}

/** What the model is told when a path changed between the check and the act. */
function changedMessage(shown: string): string {
  return `\`${shown}\` changed while it was being opened (a link appeared in its path); nothing was done; try again`
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
