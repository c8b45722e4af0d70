import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { FileChange } from '../../shared/checkpoints'
import { readLeftOut, writeLeftOut, type NotCovered } from './left-out'
import {
  byPath,
  folderBytes,
  looseObjectBytes,
  normalise,
  only,
  removeStaleLocks,
  type RawChange
} from './shadow-format'
import { GitFailure, shadowGit, shadowGitBytes, type GitRun } from './shadow-git'
import { checkpointFirst, putBackFiles, restorable, type RestoreIo } from './restore-files'
import { CheckpointCommits } from './shadow-commits'
import { LATEST, ShadowQueries } from './shadow-queries'
import { ignoredFiles, stageFiles, stageFolder, type Staging } from './shadow-stage'
import type {
  Checkpoint,
  FolderPlan,
  Restored,
  ShadowStoreOptions,
  TakenCheckpoint
} from './shadow-types'

export { IGNORED, MAX_BINARY_BYTES, NESTED_REPOSITORY, isBinary, type NotCovered } from './left-out'
export { normalise } from './shadow-format'
export type * from './shadow-types'

/** Files larger than this are never stored (a restore cannot bring them back; it says so). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024

/**
 * Checkpoints of one project folder's files, in a git repository of Mecatl's own in the data
 * directory: its own GIT_DIR and index, the folder as its work tree. The project's `.git` is never
 * read for writing nor changed (git never stores a `.git`), nothing of the person's git config or
 * hooks applies, and a folder that is not a repository is covered the same way. It follows the
 * folder's `.gitignore` files, nested ones too.
 *
 * Each checkpoint is a commit with no parent under a ref of its own, so dropping old ones
 * (retention) never rewrites the ids the transcript's cards refer to.
 */
export class ShadowStore {
  readonly gitDir: string
  readonly workspace: string
  readonly env: NodeJS.ProcessEnv | undefined
  private readonly limit: () => number
  private ready: Promise<void> | null = null
  /** One git command at a time per store: the index is shared. */
  private queue: Promise<unknown> = Promise.resolve()
  /** The clean-up running beside the queue, if one is. */
  private compacting: Promise<void> | null = null
  /** Files left out of the last checkpoint: skipped by `git add` until they fit again. */
  private skipped: Map<string, string> | null = null
  private readonly queries = new ShadowQueries((args, options) => this.git(args, options))
  private readonly commits: CheckpointCommits

  constructor(options: ShadowStoreOptions) {
    const key = createHash('sha256').update(options.workspace).digest('hex').slice(0, 16)
    this.gitDir = path.join(options.root, key, 'git')
    this.workspace = options.workspace
    this.env = options.env
    const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    this.limit = typeof limit === 'number' ? () => limit : limit
    this.commits = new CheckpointCommits(
      this.gitDir,
      (args, options) => this.git(args, options),
      this.queries,
      options.now ?? Date.now
    )
  }

  /** Files larger than this are not stored, from the next checkpoint on. */
  get maxFileBytes(): number {
    return this.limit()
  }

  /** Records the folder as it is now; a folder unchanged since the newest gives that one. */
  async take(reason: string, sessionId: string | null = null): Promise<TakenCheckpoint> {
    return this.serial(() => this.takeNow(reason, sessionId))
  }

  /** The newest checkpoint, or null before the first. */
  async latest(): Promise<Checkpoint | null> {
    return this.serial(async () => {
      await this.init()
      const id = await this.queries.ref(LATEST)
      return id ? this.queries.describe(id) : null
    })
  }

  /** Every checkpoint, newest first. */
  async list(): Promise<Checkpoint[]> {
    return this.serial(async () => {
      await this.init()
      return this.queries.list()
    })
  }

  /** What changed in the folder from checkpoint `from` to `to` (default: the folder now). */
  async changes(from: string, to?: string): Promise<FileChange[]> {
    return this.serial(async () => {
      await this.init()
      return this.queries.changes(from, to ?? (await this.treeNow()))
    })
  }

  /** The unified diff of one checkpoint against another (default: the folder now). */
  async diff(from: string, to?: string): Promise<string> {
    return this.serial(async () => {
      await this.init()
      const target = to ?? (await this.treeNow())
      return this.git(['diff', '--no-renames', '--no-color', from, target])
    })
  }

  /** One file's bytes at a checkpoint, or null when it did not exist there. */
  async fileAt(id: string, file: string): Promise<Buffer | null> {
    const name = normalise(file)
    return this.serial(async () => {
      await this.init()
      const listed = await this.git(['ls-tree', '-z', id, '--', `:(literal)${name}`])
      if (!listed) return null
      return shadowGitBytes(this, ['cat-file', 'blob', `${id}:${name}`])
    })
  }

  /** What restoring `id` (or only `files` of it) would change, and what it would overwrite. */
  async plan(id: string, files?: readonly string[]): Promise<FolderPlan> {
    return this.serial(async () => {
      await this.init()
      const notCovered = await this.stage()
      const now = (await this.git(['write-tree'])).trim()
      const changes = await restorable(
        this.workspace,
        this.skipped ?? new Map<string, string>(),
        only(await this.queries.changes(id, now), files)
      )
      const latest = await this.queries.ref(LATEST)
      const outside = latest
        ? new Set((await this.queries.changes(latest, now)).map((c) => c.path))
        : null
      return {
        changes,
        conflicts: outside ? changes.map((c) => c.path).filter((p) => outside.has(p)) : [],
        notCovered: byPath([...notCovered, ...(await ignoredFiles(this.staging()))])
      }
    })
  }

  /**
   * Puts the folder's files (or only `files`) back as they were at `id`: changed ones rewritten,
   * created ones removed, deleted ones brought back, each through the jail's descriptor walk
   * (see putBackFiles). The state before is checkpointed first, so the restore can itself be
   * undone by restoring that one; a file it could not put back (a link where a folder was, a
   * folder swapped while it worked) is left as it is and named in `notRestored`.
   */
  async restore(
    id: string,
    files?: readonly string[],
    sessionId: string | null = null
  ): Promise<Restored> {
    return this.serial(async () => {
      const reason = `before restoring ${id.slice(0, 12)}`
      // Beside the undo's git runs: the checkpoint's tree (the folder's after a restore that puts
      // back every difference, committed with no second write-tree), and, once the folder is
      // staged, what the restore changes (read from the index while its tree is written).
      const target = this.commits.treeOf(id)
      target.catch(() => undefined)
      let listed: Promise<RawChange[]> | null = null
      const staged = (): void => {
        listed = this.queries.restoreChanges(id)
        listed.catch(() => undefined)
      }
      // Only the files restored need their state kept for the undo (which restores only those).
      const undo = await checkpointFirst(() =>
        this.takeNow(reason, sessionId, staged, files?.map(normalise))
      )
      const differences = await (listed ?? this.queries.restoreChanges(id, undo.id))
      const skipped = this.skipped ?? new Map<string, string>()
      const changes = await restorable(this.workspace, skipped, only(differences, files))
      const base = await this.commits.baseOf(undo)
      const created = changes.filter((c) => c.change === 'created')
      const back = changes.filter((c) => c.change !== 'created')
      const { done, notRestored } = await putBackFiles(this.restoring(), created, back)
      const message = `restored ${id.slice(0, 12)}`
      // The restored state is named the newest only once its files are back.
      if (notRestored.length === 0 && changes.length === differences.length) {
        await this.commits.commitTree(await target, message, sessionId, base, [])
      } else {
        await this.commitIndex(message, sessionId, undo, [])
      }
      return { undo, changes: done, notRestored }
    })
  }

  /** Drops checkpoints (never the newest); their files go at the next clean-up. */
  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0
    return this.serial(async () => {
      await this.init()
      const latest = await this.queries.ref(LATEST)
      const gone = new Set(ids.filter((id) => id !== latest))
      const refs = await this.queries.refs()
      const lines = refs.filter((r) => gone.has(r.id)).map((r) => `delete ${r.ref}\n`)
      if (lines.length > 0) await this.git(['update-ref', '--stdin'], { input: lines.join('') })
      return lines.length
    })
  }

  /**
   * Packs the store and drops what no checkpoint refers to any more. It runs beside checkpoints
   * being taken (so a tool call never waits for it): objects younger than an hour stay, which
   * keeps those of a checkpoint being written (by this process or another, as the CLI), so the
   * files of dropped checkpoints leave the disk at the first clean-up an hour on.
   */
  async compact(): Promise<void> {
    await this.init()
    const run = shadowGit(this, ['gc', '--quiet', '--prune=1.hour.ago'])
    const done = run.then(
      () => undefined,
      () => undefined
    )
    this.compacting = done
    try {
      await run
    } finally {
      if (this.compacting === done) this.compacting = null
    }
  }

  /** Bytes the store takes on disk. */
  async sizeBytes(): Promise<number> {
    return folderBytes(this.gitDir)
  }

  /**
   * Bytes the checkpoints keep, once compacted: the store less its loose objects, which after a
   * clean-up are only those of dropped checkpoints waiting out their hour (and of one being
   * written). Retention measures this, so it never drops more to make room that is coming anyway.
   */
  async keptBytes(): Promise<number> {
    return (await folderBytes(this.gitDir)) - (await looseObjectBytes(this.gitDir))
  }

  /**
   * A checkpoint of the whole folder, or with only `files` brought up to date in the index. What
   * `.gitignore` leaves out is not walked for in a whole one (a second walk of the folder on every
   * change); `plan` lists it for a restore.
   */
  private async takeNow(
    reason: string,
    sessionId: string | null,
    staged?: () => void,
    files?: readonly string[]
  ): Promise<TakenCheckpoint> {
    await this.init()
    const last = await this.queries.latestKnown(this.gitDir, this.commits.committed)
    const whole = async (): Promise<TakenCheckpoint> => {
      const notCovered = await this.stage(last?.checkpoint.id ?? null)
      return this.commitIndex(reason, sessionId, last, byPath(notCovered), staged)
    }
    if (!files) return whole()
    const skipped = this.skipped ?? new Map<string, string>()
    const inside = files.filter((file) => !path.isAbsolute(file) && !file.startsWith('..'))
    try {
      await stageFiles(this.staging(), inside, skipped)
    } catch (error) {
      // What git will not stage alone (a path now beyond a link) it stages in a whole walk.
      if (!(error instanceof GitFailure)) throw error
      return whole()
    }
    this.skipped = skipped
    await writeLeftOut(this.skippedFile(), skipped)
    return this.commitIndex(reason, sessionId, last, this.notCoveredNow(), staged)
  }

  /**
   * The index as a checkpoint after `last`; an index the same as `last` gives `last` (no new
   * commit for a folder that did not change). `staged` hears when the index is complete, as its
   * tree is being written.
   */
  private async commitIndex(
    reason: string,
    sessionId: string | null,
    last: { checkpoint: Checkpoint; tree: string } | TakenCheckpoint | null,
    notCovered: NotCovered[],
    staged?: () => void
  ): Promise<TakenCheckpoint> {
    const base = await this.commits.baseOf(last)
    staged?.()
    const tree = (await this.git(['write-tree'])).trim()
    return this.commits.commitTree(tree, reason, sessionId, base, notCovered)
  }

  /** The folder as a tree in the store, without making a checkpoint of it. */
  private async treeNow(): Promise<string> {
    await this.stage()
    return (await this.git(['write-tree'])).trim()
  }

  private async init(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.gitDir, { recursive: true })
      await this.git(['init', '-q', '--bare', this.gitDir], { noWorkTree: true })
      await this.git(['config', 'core.bare', 'false'], { noWorkTree: true })
      await removeStaleLocks(this.gitDir)
      this.skipped = await readLeftOut(this.skippedFile())
    })()
    // A failed start (no git, a broken disk) is tried again next time, not remembered.
    this.ready.catch(() => {
      this.ready = null
    })
    return this.ready
  }

  /**
   * Brings the index in line with the folder, leaving out what may not be stored; what it leaves
   * out is remembered beside the store, so a file too big stays out (unhashed) while it is.
   */
  private async stage(base?: string | null): Promise<NotCovered[]> {
    const skipped = this.skipped ?? new Map<string, string>()
    const from = base === undefined ? await this.queries.ref(LATEST) : base
    const unreadable = await stageFolder(this.staging(), from, skipped)
    this.skipped = skipped
    await writeLeftOut(this.skippedFile(), skipped)
    return [...this.notCoveredNow(), ...unreadable]
  }

  private restoring(): RestoreIo {
    return {
      workspace: this.workspace,
      maxFileBytes: this.maxFileBytes,
      git: (args, options) => this.git(args, options),
      gitBytes: (args, input) => shadowGitBytes(this, args, input)
    }
  }

  private staging(): Staging {
    return {
      workspace: this.workspace,
      maxFileBytes: this.maxFileBytes,
      git: (args, options) => this.git(args, options)
    }
  }

  private notCoveredNow(): NotCovered[] {
    return byPath(
      [...(this.skipped ?? new Map<string, string>())].map(([file, why]) => ({ path: file, why }))
    )
  }

  private skippedFile(): string {
    return path.join(this.gitDir, 'mecatl-not-covered.json')
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  /**
   * A git command of the store's own. One that fails beside a clean-up is run once more after
   * it: gc removes emptied object folders as `git add` writes into them, and packs refs as they
   * move, so a checkpoint would fail for nothing. Each command here may be run twice.
   */
  private async git(args: string[], options: GitRun = {}): Promise<string> {
    const before = this.compacting
    try {
      return await shadowGit(this, args, options)
    } catch (error) {
      const clash = before ?? this.compacting
      if (!(error instanceof GitFailure) || !clash) throw error
      await clash
      return shadowGit(this, args, options)
    }
  }
}
