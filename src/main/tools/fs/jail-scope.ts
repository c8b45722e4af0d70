import { constants, type Stats } from 'node:fs'
import { access, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { JailedDir, JailRefusal, MadeDirs, type DirWalk } from '../../workspace/jailed-dir'
import type { PathAccess, Resolved } from '../../workspace/path-jail'
import { inGitFolder } from '../../workspace/git-names'
import { errorOutput, type ToolContext, type ToolOutput } from '../tool'
import { shownPath, stalenessMessage, type PathState } from './file-state'
import { closedOnFailure } from '../../workspace/closed-on-failure'

/** A path through the jail and what is there, with the directory that holds it opened. */
export interface Place {
  /** Canonical and absolute: the key of the session's read ledger. */
  path: string
  shown: string
  state: PathState
  resolved: Resolved
  /**
   * The directory that holds it, opened by descriptor (see JailedDir): every act on the place
   * goes through it. Null for a root itself, or when that directory does not exist.
   */
  parent: JailedDir | null
  /** Its name in `parent`. */
  name: string
}

export type Located = { ok: false; output: ToolOutput } | { ok: true; place: Place }

/**
 * One tool call's use of the jail: it resolves paths, opens what they lead to by descriptor,
 * and closes all of it when the call ends (see `withJail`).
 */
export class JailScope {
  private readonly opened: JailedDir[] = []
  /** Directories createParent made, kept unless undoCreated removes them. */
  private readonly made: MadeDirs[] = []

  constructor(readonly ctx: ToolContext) {}

  /**
   * Through the jail, then a look at what is there, following links (a link inside the folder
   * leads to what it points to). Tools that only read pass `read`, which may also lead into
   * the session's spill directory or a loaded skill's folder.
   */
  async locate(requested: string, access: PathAccess = 'write'): Promise<Located> {
    const resolved = await this.ctx.jail.resolve(requested, access)
    if (!resolved.ok) return { ok: false, output: errorOutput(resolved.message) }
    const shown = shownPath(this.ctx.jail, requested, resolved.path)
    const base = { path: resolved.path, shown, resolved, name: path.basename(resolved.path) }
    if (resolved.path === resolved.root) {
      const self = await this.ctx.jail.openDir(resolved)
      if (self.kind === 'open') await self.dir.close()
      const state: PathState = self.kind === 'open' ? { kind: 'directory' } : { kind: 'missing' }
      return { ok: true, place: { ...base, state, parent: null } }
    }
    const parent = await this.track(await this.ctx.jail.openParent(resolved))
    if (parent === null || parent === 'under-file') {
      const state: PathState = { kind: parent === null ? 'missing' : 'under-file' }
      return { ok: true, place: { ...base, state, parent: null } }
    }
    const stats = await parent.lstat(base.name)
    // The jail resolved every link on the way, the last name's included: one there now is new.
    if (stats?.isSymbolicLink()) throw new JailRefusal('changed', resolved.path)
    return { ok: true, place: { ...base, state: stateOf(stats), parent } }
  }

  /** Opens a place that is a directory, by descriptor. */
  async directory(place: Place): Promise<JailedDir> {
    if (place.parent) return this.keep(await place.parent.openDir(place.name))
    const self = await this.track(await this.ctx.jail.openDir(place.resolved))
    if (self instanceof JailedDir) return self
    throw new JailRefusal('changed', place.path)
  }

  /**
   * The directory a new entry at `place` goes in, creating missing directories one at a time
   * through their parents' descriptors (never the project folder itself); null when a file is
   * in the way. Directories made here and then not needed (the next step failed) are removed
   * by undoCreated.
   */
  async createParent(place: Place): Promise<JailedDir | null> {
    if (place.parent) return place.parent
    const walk = await this.ctx.jail.openParent(place.resolved, 'undoable')
    if (walk.kind === 'open' && walk.made) this.made.push(walk.made)
    const made = await this.track(walk)
    if (made === 'under-file') return null
    // Created a moment ago and gone already: removed by someone else while we worked.
    if (made === null) throw new JailRefusal('changed', place.path)
    return made
  }

  keep(dir: JailedDir): JailedDir {
    this.opened.push(dir)
    return dir
  }

  /** Removes the directories createParent made in this call (the deepest first). */
  async undoCreated(): Promise<void> {
    for (const made of this.made.splice(0).reverse()) await made.undo()
  }

  async close(): Promise<void> {
    await Promise.all(this.made.splice(0).map((made) => made.keep()))
    await Promise.all(this.opened.splice(0).map((dir) => dir.close()))
  }

  private async track(walk: DirWalk): Promise<JailedDir | 'under-file' | null> {
    if (walk.kind === 'open') return this.keep(walk.dir)
    return walk.kind === 'under-file' ? 'under-file' : null
  }
}

/**
 * Runs one file tool call with a JailScope: what it opened is closed when it ends, and a path
 * that changed under it (or a project folder that is gone) becomes a refusal the model can act
 * on. When that is thrown, nothing has been done.
 */
export async function withJail(
  ctx: ToolContext,
  body: (scope: JailScope) => Promise<ToolOutput>
): Promise<ToolOutput> {
  const scope = new JailScope(ctx)
  try {
    return await body(scope)
  } catch (error) {
    if (error instanceof JailRefusal) return errorOutput(ctx.jail.refusalMessage(error))
    throw error
  } finally {
    await scope.close()
  }
}

/** A place that is a regular file, opened for reading through its directory, and its stats. */
export async function openRegularFile(place: Place): Promise<{ handle: FileHandle; stats: Stats }> {
  const parent = parentOf(place)
  // O_NONBLOCK: a FIFO put there since the look must not hang the open; files ignore it.
  const handle = await parent.openFile(place.name, constants.O_RDONLY | constants.O_NONBLOCK)
  return closedOnFailure(handle, async () => {
    const stats = await handle.stat()
    if (!stats.isFile()) throw new JailRefusal('changed', place.path)
    return { handle, stats }
  })
}

/**
 * Why an existing file may not be replaced: a file nobody may write (no write bit, as a person
 * makes a file read-only) or that this process may not; null when it may be.
 */
export async function notWritable(
  place: Place,
  stats: Stats,
  verb: string
): Promise<string | null> {
  const mode = (stats.mode & 0o777).toString(8).padStart(3, '0')
  if ((stats.mode & 0o222) === 0) {
    return `\`${place.shown}\` is read-only (mode ${mode}), so ${verb} did not replace it; if it should change, make it writable first (for example \`chmod u+w\`), or leave it as it is`
  }
  const writable = await access(parentOf(place).entry(place.name), constants.W_OK).then(
    () => true,
    () => false
  )
  if (writable) return null
  return `\`${place.shown}\` is not writable by this user (mode ${mode}), so ${verb} did not replace it; change its permissions first if it should change`
}

/**
 * The file Write or Edit is about to replace, read through its directory: refused when this
 * session has not read it, when it changed since, or when it may not be written.
 */
export async function readForReplace(
  ctx: ToolContext,
  place: Place,
  verb: 'Write' | 'Edit'
): Promise<{ ok: true; bytes: Buffer; stats: Stats } | { ok: false; output: ToolOutput }> {
  const { handle, stats } = await openRegularFile(place)
  const bytes = await handle.readFile().finally(() => handle.close())
  const fresh = ctx.reads.check(place.path, bytes)
  if (!fresh.ok)
    return { ok: false, output: errorOutput(stalenessMessage(fresh.reason, place.shown, verb)) }
  const refused = await notWritable(place, stats, verb)
  if (refused) return { ok: false, output: errorOutput(refused) }
  return { ok: true, bytes, stats }
}

/**
 * Refuses to change `absolute` when it lies in a `.git` folder and no person approved this call
 * as a write there: the gate judged the path before a link could move it, and a write into .git
 * is never one nobody saw.
 */
export function refuseUnapprovedGitWrite(ctx: ToolContext, absolute: string): void {
  if (ctx.gitWriteApproved !== true && inGitFolder(path.relative(ctx.jail.root, absolute))) {
    throw new JailRefusal('changed', absolute)
  }
}

/** The directory of a place that exists (a file, or a directory that is not a root). */
export function parentOf(place: Place): JailedDir {
  if (place.parent === null) throw new Error(`${place.path} has no open parent`)
  return place.parent
}

function stateOf(stats: Stats | null): PathState {
  if (stats === null) return { kind: 'missing' }
  if (stats.isFile()) return { kind: 'file', stats }
  if (stats.isDirectory()) return { kind: 'directory' }
  return { kind: 'special' }
}
