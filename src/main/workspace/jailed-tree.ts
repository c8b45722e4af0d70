import { constants } from 'node:fs'
import { realpath, symlink, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { JailedDir, JailRefusal } from './jailed-dir'
import { recordTemp, tempNameFor } from './temp-journal'

const { O_WRONLY, O_CREAT, O_EXCL } = constants

/** What link(2) says on a file system that has no hard links (FAT, some network mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/**
 * What stood in the way of an act under a JailedTree. `at` is the path (relative, `/`-separated)
 * of what is in the way: a link or a file where a folder of the path should be, a folder where
 * the file itself is, or (for a put that must not replace) anything at all. Nothing was done.
 */
export class TreeObstacle extends Error {
  constructor(
    readonly kind: 'link' | 'file' | 'folder' | 'exists',
    readonly at: string
  ) {
    super(`${at}: ${kind} in the way`)
    this.name = 'TreeObstacle'
  }
}

/**
 * A folder acted on many times by relative path (a checkpoint restore's removals and writes),
 * every act through the jail's descriptor walk: each directory is opened through its parent's
 * descriptor, never through a link, and kept open for the next act under it, so a folder of a
 * thousand files is walked once. A link where a folder should be is a TreeObstacle, never
 * followed nor replaced; a directory that changed between its check and its opening is a
 * JailRefusal (see JailedDir). The directory of each act is verified to be where it was checked
 * just before the act. Close it when done.
 */
export class JailedTree {
  /**
   * The directories opened so far (or being opened), by relative path (`a/b`); the root is ''.
   * Acts may run side by side: two under one new folder share its one opening.
   */
  private readonly opened = new Map<string, Promise<JailedDir | null>>()

  private constructor(private readonly root: JailedDir) {
    this.opened.set('', Promise.resolve(root))
  }

  /** The tree at `folder`; a folder that is gone is a JailRefusal (`root-gone`), never made. */
  static async open(folder: string): Promise<JailedTree> {
    const canonical = await realpath(folder).catch(() => null)
    if (canonical === null) throw new JailRefusal('root-gone', folder)
    const walk = await JailedDir.walk(canonical, [], false)
    if (walk.kind !== 'open') throw new JailRefusal('root-gone', folder)
    return new JailedTree(walk.dir)
  }

  /** The canonical path of the folder. */
  get path(): string {
    return this.root.path
  }

  /**
   * Removes the file or link at `file` (a link itself, never what it leads to). `gone` when
   * nothing is there, or the folder it was in is gone (or a file now): it is not there now.
   */
  async remove(file: string): Promise<'removed' | 'gone'> {
    const place = await this.parentOf(file, false)
    if (place === null) return 'gone'
    const { dir, name } = place
    await dir.verify()
    const there = await dir.lstat(name)
    if (there === null) return 'gone'
    if (there.isDirectory()) throw new TreeObstacle('folder', file)
    try {
      await dir.unlink(name)
      return 'removed'
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return 'gone'
      throw error
    }
  }

  /**
   * Removes the folder `folder` and then each folder above it while they are empty, never the
   * root; stops quietly at the first that is not empty, not a folder, or changed.
   */
  async pruneEmpty(folder: string): Promise<void> {
    for (let dir = folder; dir !== ''; dir = parentPath(dir)) {
      const parent = await this.opened.get(parentPath(dir))?.catch(() => null)
      if (!parent) return
      const name = baseName(dir)
      const there = await parent.lstat(name)
      if (!there?.isDirectory()) return
      const removed = await parent
        .verify()
        .then(() => parent.rmdir(name))
        .then(
          () => true,
          () => false
        )
      if (!removed) return
      await this.forget(dir)
    }
  }

  /**
   * Writes `bytes` as the file `file`, made with `mode` (less the umask, as a new file is):
   * a temporary file beside it, renamed over what is there (a file or a link, never followed).
   * Without `replace`, only where nothing is: anything there is a TreeObstacle. Missing folders
   * on the way are made, each through its parent's descriptor.
   */
  async putFile(file: string, bytes: Buffer, mode: number, replace: boolean): Promise<void> {
    const { dir, name } = await this.placeFor(file, replace)
    const { temp, token } = tempNameFor(name)
    const record = await recordTemp(dir.pathOf(temp), token)
    let handle: FileHandle | null = null
    try {
      handle = await dir.openFile(temp, O_WRONLY | O_CREAT | O_EXCL, mode)
      await handle.writeFile(bytes)
      // Not flushed: git's checkout, which restores did before, does not flush either, and a
      // restore of a thousand files would wait on the disk a thousand times.
      await handle.close()
      handle = null
      await this.settle(dir, temp, name, file, replace)
    } catch (error) {
      await handle?.close().catch(() => undefined)
      await dir.unlink(temp).catch(() => undefined)
      throw error
    } finally {
      await record.end()
    }
  }

  /** Makes `file` a symbolic link to `target` (never followed), as putFile makes a file. */
  async putLink(file: string, target: Buffer, replace: boolean): Promise<void> {
    const { dir, name } = await this.placeFor(file, replace)
    await dir.verify()
    if (!replace) {
      // symlink(2) makes the link only where nothing is.
      await symlink(target, dir.entry(name)).catch((error: unknown) => {
        if (codeOf(error) === 'EEXIST') throw new TreeObstacle('exists', file)
        throw error
      })
      return
    }
    const { temp } = tempNameFor(name)
    await symlink(target, dir.entry(temp))
    try {
      await this.settle(dir, temp, name, file, true)
    } catch (error) {
      await dir.unlink(temp).catch(() => undefined)
      throw error
    }
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()]
    this.opened.clear()
    await Promise.all(all.map((dir) => dir.then((d) => d?.close()).catch(() => undefined)))
  }

  /** The directory a put goes in (made as needed), with what is at the name checked. */
  private async placeFor(
    file: string,
    replace: boolean
  ): Promise<{ dir: JailedDir; name: string }> {
    const place = await this.parentOf(file, true)
    if (place === null) throw new JailRefusal('changed', this.pathOf(parentPath(file)))
    const there = await place.dir.lstat(place.name)
    if (there?.isDirectory()) {
      // An empty folder holds nothing to lose (git keeps none): it makes way, as git's does.
      const removed = await place.dir.rmdir(place.name).then(
        () => true,
        () => false
      )
      if (!removed) throw new TreeObstacle('folder', file)
      await this.forget(file)
    } else if (there && !replace) {
      throw new TreeObstacle('exists', file)
    }
    return place
  }

  /**
   * Puts the finished temporary entry at `name`: renamed over what is there, or (not replacing)
   * hard-linked where nothing is, which fails rather than replace what appeared meanwhile.
   */
  private async settle(
    dir: JailedDir,
    temp: string,
    name: string,
    file: string,
    replace: boolean
  ): Promise<void> {
    await dir.verify()
    if (replace) {
      await dir.rename(temp, dir, name).catch((error: unknown) => {
        const code = codeOf(error)
        if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw new TreeObstacle('folder', file)
        }
        throw error
      })
      return
    }
    const linked = await dir.link(temp, dir, name).then(
      () => true,
      (error: unknown) => {
        if (codeOf(error) === 'EEXIST') throw new TreeObstacle('exists', file)
        // A file system without hard links: the look just before the rename has to do.
        if (!NO_HARD_LINKS.has(codeOf(error) ?? '')) throw error
        return false
      }
    )
    if (linked) {
      await dir.unlink(temp)
      return
    }
    if (await dir.lstat(name)) throw new TreeObstacle('exists', file)
    await dir.rename(temp, dir, name)
  }

  /**
   * The opened directory that holds `file`, and its name there; null when a folder on the way
   * is missing and `create` is off. Each act verifies it just before it acts through it.
   */
  private async parentOf(
    file: string,
    create: boolean
  ): Promise<{ dir: JailedDir; name: string } | null> {
    const parts = file.split('/')
    const name = parts.pop() ?? ''
    let dir = this.root
    let at = ''
    for (const part of parts) {
      const next = at === '' ? part : `${at}/${part}`
      let child = this.opened.get(next)
      if (!child) {
        const opening = this.openChild(dir, part, next, create)
        // Only an opened directory is kept; a missing one or a refusal is looked at again.
        child = opening.then((opened) => {
          if (opened === null) this.opened.delete(next)
          return opened
        })
        child.catch(() => this.opened.delete(next))
        this.opened.set(next, child)
      }
      const opened = await child
      if (opened === null) return null
      dir = opened
      at = next
    }
    return { dir, name }
  }

  /**
   * The folder `name` in `dir` (at `at`), made first when missing and `create` is on; null
   * when it is not there (without `create`, a file there means no folder, so nothing below it).
   */
  private async openChild(
    dir: JailedDir,
    name: string,
    at: string,
    create: boolean
  ): Promise<JailedDir | null> {
    const there = await dir.lstat(name)
    if (there === null) {
      if (!create) return null
      await dir.mkdir(name).catch((error: unknown) => {
        // Made by someone else meanwhile (or a link put there): the open tells which.
        if (codeOf(error) !== 'EEXIST') throw error
      })
    } else if (there.isSymbolicLink()) {
      throw new TreeObstacle('link', at)
    } else if (!there.isDirectory()) {
      if (!create) return null
      throw new TreeObstacle('file', at)
    }
    // Never through a link: one put there since the look is a JailRefusal.
    return dir.openDir(name)
  }

  /** Closes and drops `dir` and everything opened below it (it was removed). */
  private async forget(dir: string): Promise<void> {
    for (const [at, opened] of [...this.opened]) {
      if (at === dir || at.startsWith(`${dir}/`)) {
        this.opened.delete(at)
        await opened.then((d) => d?.close()).catch(() => undefined)
      }
    }
  }

  private pathOf(relative: string): string {
    return relative === '' ? this.root.path : path.join(this.root.path, ...relative.split('/'))
  }
}

function parentPath(relative: string): string {
  const at = relative.lastIndexOf('/')
  return at < 0 ? '' : relative.slice(0, at)
}

function baseName(relative: string): string {
  return relative.slice(relative.lastIndexOf('/') + 1)
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code
}
