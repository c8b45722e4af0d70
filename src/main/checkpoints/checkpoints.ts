import { execFile } from 'node:child_process'
import path from 'node:path'
import {
  CARD_CHANGES_SHOWN,
  checkpointDefaults,
  type CallFiles,
  type CheckpointSettings,
  type CheckpointStatus
} from '../../shared/checkpoints'
import { IGNORED, ShadowStore, type TakenCheckpoint } from './shadow-store'

/** How often, at most, a store's old checkpoints are dropped and its files packed. */
const MAINTAIN_EVERY_MS = 10 * 60 * 1000

export type TakeOutcome = { ok: TakenCheckpoint } | { failed: string }

/**
 * The shadow stores of every project folder, in `<dataDir>/checkpoints`, under the checkpoint
 * settings of the moment (on or off, the size limit, retention).
 */
export class Checkpoints {
  private readonly stores = new Map<string, ShadowStore>()
  private readonly maintained = new Map<string, number>()
  private readonly maintaining = new Map<string, Promise<void>>()
  private readonly taking = new Set<Promise<unknown>>()
  private git: Promise<string | null> | null = null

  constructor(
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly settings: () => CheckpointSettings = () => checkpointDefaults,
    /** The clock checkpoints are dated and aged by (tests set it). */
    private readonly now: () => number = Date.now
  ) {}

  /**
   * The store of one project folder, made on first use. One per folder, for as long as the
   * service lives: its queue is what keeps two checkpoints of a folder from running at once, so a
   * new size limit applies to the same store's next checkpoint.
   */
  store(workspace: string): ShadowStore {
    let store = this.stores.get(workspace)
    if (!store) {
      store = new ShadowStore({
        root: path.join(this.dataDir, 'checkpoints'),
        workspace,
        env: this.env,
        maxFileBytes: () => Math.round(this.settings().max_file_mib * 1024 * 1024),
        now: this.now
      })
      this.stores.set(workspace, store)
    }
    return store
  }

  /** Whether checkpoints are taken in the folder, and why not. */
  async status(workspace: string): Promise<CheckpointStatus> {
    const off = await this.offBecause()
    const count = await this.store(workspace)
      .list()
      .then(
        (all) => all.length,
        () => 0
      )
    return { on: off === null, why: off, count }
  }

  /**
   * Takes a checkpoint and never throws: a checkpoint that cannot be taken (a full disk, no git)
   * must not fail the turn. Null when checkpoints are turned off.
   */
  async tryTake(workspace: string, reason: string, sessionId: string): Promise<TakeOutcome | null> {
    return this.track(this.takeNow(workspace, reason, sessionId))
  }

  /** Shutdown waits for what is tracked: a checkpoint under way (a job stopped as the app quits). */
  private async track<T>(work: Promise<T>): Promise<T> {
    this.taking.add(work)
    try {
      return await work
    } finally {
      this.taking.delete(work)
    }
  }

  private async takeNow(
    workspace: string,
    reason: string,
    sessionId: string
  ): Promise<TakeOutcome | null> {
    const off = await this.offBecause()
    if (off !== null) return this.settings().enabled ? { failed: off } : null
    try {
      const taken = await this.store(workspace).take(reason, sessionId)
      this.maintainSoon(workspace)
      return { ok: taken }
    } catch (error) {
      return { failed: error instanceof Error ? error.message : String(error) }
    }
  }

  /** A checkpoint after a changing call (or a job's end), as the call's card shows it. */
  async filesAfter(
    workspace: string,
    reason: string,
    sessionId: string,
    during: CallFiles['during']
  ): Promise<CallFiles | null> {
    return this.track(this.filesAfterNow(workspace, reason, sessionId, during))
  }

  private async filesAfterNow(
    workspace: string,
    reason: string,
    sessionId: string,
    during: CallFiles['during']
  ): Promise<CallFiles | null> {
    const taken = await this.tryTake(workspace, reason, sessionId)
    if (!taken) return null
    if ('failed' in taken) return { during, failed: taken.failed }
    const { id, previous } = taken.ok
    // What .gitignore leaves out is the person's choice, the same on every card: the restore
    // dialog lists it. A card names what its call made too big to keep.
    const notCovered = taken.ok.notCovered.filter((file) => file.why !== IGNORED)
    const before = previous ?? id
    const changes =
      before === id
        ? []
        : await this.store(workspace)
            .changes(before, id)
            .catch(() => [])
    return {
      during,
      before,
      after: id,
      changes: changes.slice(0, CARD_CHANGES_SHOWN),
      more: Math.max(0, changes.length - CARD_CHANGES_SHOWN),
      ...(notCovered.length > 0 ? { notCovered: notCovered.slice(0, CARD_CHANGES_SHOWN) } : {})
    }
  }

  /**
   * Drops a session's checkpoints (never the folder's newest); returns how many. Without git
   * there is nothing it can drop, and the session's deletion must not fail for it: none.
   */
  async removeSession(workspace: string, sessionId: string): Promise<number> {
    if (await this.gitMissingWhy()) return 0
    const store = this.store(workspace)
    const mine = (await store.list()).filter((c) => c.sessionId === sessionId)
    const removed = await store.remove(mine.map((c) => c.id))
    if (removed > 0) void this.maintain(workspace, true)
    return removed
  }

  /** Waits for checkpoints and clean-ups under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.taking.size > 0 || this.maintaining.size > 0) {
      await Promise.allSettled([...this.taking, ...this.maintaining.values()])
    }
  }

  private maintainSoon(workspace: string): void {
    const last = this.maintained.get(workspace) ?? 0
    if (this.now() - last < MAINTAIN_EVERY_MS || this.maintaining.has(workspace)) return
    this.maintained.set(workspace, this.now())
    void this.maintain(workspace, false)
  }

  /**
   * Retention: checkpoints older than `keep_days` go, then the oldest until the store is under
   * `max_store_mib`; the newest always stays. Runs beside checkpoints, never in their way.
   */
  private maintain(workspace: string, pack: boolean): Promise<void> {
    const running = this.maintaining.get(workspace)
    if (running) return running
    const work = (async () => {
      const { keep_days: keepDays, max_store_mib: maxMib } = this.settings()
      const store = this.store(workspace)
      const all = await store.list()
      const cutoff = this.now() - keepDays * 24 * 60 * 60 * 1000
      let dropped = await store.remove(all.filter((c) => c.at < cutoff).map((c) => c.id))
      const limit = maxMib * 1024 * 1024
      // Measured as what the checkpoints keep: the disk holds dropped ones' files for an hour
      // more, and counting those would drop checkpoint after checkpoint for room already made.
      let size = await store.sizeBytes()
      if (pack || dropped > 0 || size > limit / 2) {
        await store.compact()
        size = await store.keptBytes()
      }
      for (let round = 0; round < 8 && size > limit; round++) {
        const left = (await store.list()).slice(1)
        if (left.length === 0) break
        const oldest = left.slice(-Math.max(1, Math.ceil(left.length / 4)))
        dropped = await store.remove(oldest.map((c) => c.id))
        if (dropped === 0) break
        await store.compact()
        size = await store.keptBytes()
      }
    })()
      .catch((error: unknown) => {
        console.warn(`Mecatl: checkpoint clean-up of ${workspace} failed: ${String(error)}`)
      })
      .finally(() => this.maintaining.delete(workspace))
    this.maintaining.set(workspace, work)
    return work
  }

  /** Why no checkpoints are taken now, or null. */
  private async offBecause(): Promise<string | null> {
    if (!this.settings().enabled) return 'checkpoints are turned off in Settings'
    return this.gitMissingWhy()
  }

  private gitMissingWhy(): Promise<string | null> {
    this.git ??= gitMissing(this.env)
    return this.git
  }
}

/** Checkpoints need the `git` program; null when it runs. */
function gitMissing(env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['--version'], { env: { PATH: env.PATH } }, (error) => {
      resolve(
        error
          ? 'the git program is not installed (install git, e.g. apt-get install git), so checkpoints are off'
          : null
      )
    })
  })
}
