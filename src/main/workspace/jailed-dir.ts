import { constants, existsSync, type Dirent, type Stats } from 'node:fs'
import {
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  rmdir,
  stat,
  unlink,
  type FileHandle
} from 'node:fs/promises'
import path from 'node:path'
import { closedOnFailure } from './closed-on-failure'

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants

/**
 * Node has no openat(), but on Linux `/proc/self/fd/<fd>/<name>` is resolved from the directory
 * the descriptor holds, whatever has happened to its path since: that is the whole defence
 * against a directory swapped for a link between a check and the act. Elsewhere (macOS, and
 * Windows, where a directory cannot be opened at all) names are joined to the checked path and
 * the directory is re-verified, by real path and identity, around every act instead.
 */
const FD_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd')

/**
 * A path changed between the jail's check and the act, or a root it starts from is gone.
 * Thrown rather than returned because it can happen at any step; the file tools turn it into a
 * refusal the model can act on. Nothing has been done when it is thrown.
 */
export class JailRefusal extends Error {
  constructor(
    readonly kind: 'changed' | 'root-gone',
    /** The canonical path that was being opened, or the root that is gone. */
    readonly path: string
  ) {
    super(kind === 'changed' ? `${path} changed while it was being opened` : `${path} is gone`)
  }
}

/**
 * Whether a walk makes the directories that are missing: `undoable` also hands back what it
 * made, so the caller can remove it again when its next step fails (see MadeDirs).
 */
export type CreateMode = boolean | 'undoable'

/** What walking to a directory found. */
export type DirWalk =
  /** `made`: with `undoable`, the directories this walk created, to remove or to keep. */
  | { kind: 'open'; dir: JailedDir; made?: MadeDirs }
  | { kind: 'missing' }
  /** A component is a file (or FIFO, device), so nothing can be below it. */
  | { kind: 'under-file' }

/**
 * A directory opened through the jail: every name in it is reached through the descriptor, so
 * the directory acted on is the one that was checked. Names are single components, never paths.
 */
export class JailedDir {
  private constructor(
    /** Where the directory was when it was opened and verified (canonical). */
    readonly path: string,
    /** Held on Linux only: what every name in the directory is resolved through. */
    private readonly handle: FileHandle | null,
    private readonly identity: Stats
  ) {}

  /**
   * Opens `root` (a canonical directory) and walks down `components` one at a time, never
   * following a link; with `create`, missing directories are made on the way, each through its
   * parent's descriptor. A component that is a link now (the jail saw none) is a JailRefusal.
   */
  static async walk(
    root: string,
    components: readonly string[],
    create: CreateMode
  ): Promise<DirWalk> {
    let current: JailedDir
    try {
      current = await JailedDir.openAt(root, root, true)
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
        throw new JailRefusal('root-gone', root)
      }
      throw error
    }
    // What this walk created, each with its parent kept open: a walk that fails part way
    // removes them again, so a refused path leaves nothing behind.
    const made = new MadeDirs()
    try {
      await current.verify()
      for (const name of components) {
        const next = await current.openChild(name, create !== false)
        if (next.created && next.walk.kind === 'open') made.add(current, name, next.walk.dir)
        else await current.close()
        if (next.walk.kind !== 'open') {
          await made.undo()
          return next.walk
        }
        current = next.walk.dir
      }
      await current.verify()
    } catch (error) {
      await current.close()
      await made.undo()
      throw error
    }
    if (create === 'undoable') return { kind: 'open', dir: current, made }
    await made.keep()
    return { kind: 'open', dir: current }
  }

  /**
   * Opens the directory at `absolute` (canonical) in one step and checks that the directory
   * opened really is at that path, so no link on the way was followed: for walks that go down a
   * tree by name (Glob, Grep), where a walk per directory would cost too much.
   */
  static async openExact(absolute: string): Promise<JailedDir> {
    const dir = await JailedDir.openAt(absolute, absolute, true)
    await closedOnFailure(dir, () => dir.verify())
    return dir
  }

  /**
   * The directory at `where` (a path to open, maybe through a descriptor), known as `canonical`.
   * Without `follow`, a link there fails as open(2) with O_NOFOLLOW does (ELOOP or ENOTDIR).
   */
  private static async openAt(
    where: string,
    canonical: string,
    follow: boolean
  ): Promise<JailedDir> {
    if (!FD_PATHS) {
      const stats = await (follow ? stat(where) : lstat(where))
      if (stats.isSymbolicLink())
        throw Object.assign(new Error(`${where} is a link`), { code: 'ELOOP' })
      if (!stats.isDirectory()) {
        throw Object.assign(new Error(`${where} is not a directory`), { code: 'ENOTDIR' })
      }
      return new JailedDir(canonical, null, stats)
    }
    const handle = await open(where, O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
    return closedOnFailure(
      handle,
      async () => new JailedDir(canonical, handle, await handle.stat())
    )
  }

  /** What identifies the directory (its device and inode) as it was opened. */
  identitySnapshot(): Stats {
    return this.identity
  }

  /** `/proc/self/fd/<fd>` of the directory's descriptor; null where there is none. */
  private get fdPath(): string | null {
    return this.handle ? `/proc/self/fd/${this.handle.fd}` : null
  }

  /** `name` in this directory, as a path that does not resolve the directory again. */
  entry(name: string): string {
    const single =
      !['', '.', '..'].includes(name) && !/[/\0]/.test(name) && !name.includes(path.sep)
    if (!single) {
      throw new Error(`not a single name: ${JSON.stringify(name)}`)
    }
    const fdPath = this.fdPath
    return fdPath ? `${fdPath}/${name}` : path.join(this.path, name)
  }

  /** The canonical path `name` had when this directory was checked. */
  pathOf(name: string): string {
    return path.join(this.path, name)
  }

  /**
   * Throws a JailRefusal unless the directory still is where it was checked: renamed, replaced
   * or deleted since, an act through it would land somewhere other than the path reported.
   */
  async verify(): Promise<void> {
    const fdPath = this.fdPath
    if (fdPath) {
      const now = await readlink(fdPath).catch(() => null)
      if (now !== this.path) throw new JailRefusal('changed', this.path)
      return
    }
    const [real, seen] = await Promise.all([
      realpath(this.path).catch(() => null),
      stat(this.path).catch(() => null)
    ])
    if (real !== this.path || !seen || !sameFile(seen, this.identity)) {
      throw new JailRefusal('changed', this.path)
    }
  }

  /** What is at `name` itself (a link is the link); null when nothing is. */
  async lstat(name: string): Promise<Stats | null> {
    try {
      return await lstat(this.entry(name))
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null
      throw error
    }
  }

  /**
   * Opens the file `name` with `flags` plus O_NOFOLLOW: a link that appeared at the name is a
   * JailRefusal, never followed. The caller closes the handle.
   */
  async openFile(name: string, flags: number, mode?: number): Promise<FileHandle> {
    let handle: FileHandle
    try {
      handle = await open(this.entry(name), flags | O_NOFOLLOW, mode)
    } catch (error) {
      if (errorCode(error) === 'ELOOP') throw new JailRefusal('changed', this.pathOf(name))
      throw error
    }
    if (!FD_PATHS) {
      // By name: make sure the directory it was opened in is still the one checked.
      await closedOnFailure(handle, () => this.verify())
    }
    return handle
  }

  /** Opens the directory `name` (never through a link); the caller closes it. */
  async openDir(name: string): Promise<JailedDir> {
    const { walk } = await this.openChild(name, false)
    if (walk.kind === 'open') return walk.dir
    throw new JailRefusal('changed', this.pathOf(name))
  }

  async readdir(): Promise<Dirent[]> {
    return readdir(this.fdPath ?? this.path, { withFileTypes: true })
  }

  async readlink(name: string): Promise<string> {
    return readlink(this.entry(name))
  }

  /** Creates the directory `name`; mkdir never follows a link at the name. */
  async mkdir(name: string): Promise<void> {
    await this.acting(() => mkdir(this.entry(name)))
  }

  /** Removes the empty directory `name`; a link there is refused by the system (ENOTDIR). */
  async rmdir(name: string): Promise<void> {
    await this.acting(() => rmdir(this.entry(name)))
  }

  /** Removes the entry `name` itself: a link, not what it points to. */
  async unlink(name: string): Promise<void> {
    await this.acting(() => unlink(this.entry(name)))
  }

  /** rename(2) from this directory to `to`; it replaces what is at the destination. */
  async rename(name: string, to: JailedDir, toName: string): Promise<void> {
    await this.acting(() => rename(this.entry(name), to.entry(toName)), to)
  }

  /** A hard link to the entry `name` itself (a link stays a link), failing if `toName` exists. */
  async link(name: string, to: JailedDir, toName: string): Promise<void> {
    await this.acting(() => link(this.entry(name), to.entry(toName)), to)
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined)
  }

  /** By name only where there are no descriptor paths: verified before the act as well. */
  private async acting(act: () => Promise<void>, other?: JailedDir): Promise<void> {
    if (!FD_PATHS) await Promise.all([this.verify(), other?.verify()])
    await act()
  }

  /** The child directory `name`; `created` when this call made it. */
  private async openChild(
    name: string,
    create: boolean
  ): Promise<{ walk: DirWalk; created: boolean }> {
    const childPath = this.pathOf(name)
    let created = false
    for (let attempt = 0; ; attempt++) {
      try {
        const child = await JailedDir.openAt(this.entry(name), childPath, false)
        if (!FD_PATHS) await Promise.all([this.verify(), child.verify()])
        return { walk: { kind: 'open', dir: child }, created }
      } catch (error) {
        const code = errorCode(error)
        if (code === 'ENOENT' && create && attempt === 0) {
          try {
            await this.mkdir(name)
            created = true
          } catch (made) {
            // Someone else made it (or a link appeared there): the next open tells which.
            if (errorCode(made) !== 'EEXIST') throw made
          }
          continue
        }
        if (code === 'ENOENT') return { walk: { kind: 'missing' }, created: false }
        if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error
        // O_NOFOLLOW|O_DIRECTORY says ENOTDIR for a link as for a file: look at which it is.
        const stats = await this.lstat(name)
        if (stats === null) return { walk: { kind: 'missing' }, created: false }
        if (stats.isSymbolicLink() || stats.isDirectory()) {
          throw new JailRefusal('changed', childPath)
        }
        return { walk: { kind: 'under-file' }, created: false }
      }
    }
  }
}

/**
 * Directories a walk created, each with its parent held open: `undo` removes them (the deepest
 * first, each only if it is still the directory made and still empty), `keep` lets them be.
 * Either way the parents are closed; both may be called more than once.
 */
export class MadeDirs {
  private made: { parent: JailedDir; name: string; identity: Stats }[] = []

  /** `dir` was just made as `name` in `parent` (which stays open until undo or keep). */
  add(parent: JailedDir, name: string, dir: JailedDir): void {
    this.made.push({ parent, name, identity: dir.identitySnapshot() })
  }

  async undo(): Promise<void> {
    for (const { parent, name, identity } of this.made.splice(0).reverse()) {
      try {
        const now = await parent.lstat(name)
        if (now && now.isDirectory() && sameFile(now, identity)) await parent.rmdir(name)
      } catch {
        // Not empty any more, or gone: someone else's now, so it stays.
      } finally {
        await parent.close()
      }
    }
  }

  async keep(): Promise<void> {
    await Promise.all(this.made.splice(0).map(({ parent }) => parent.close()))
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code
}
