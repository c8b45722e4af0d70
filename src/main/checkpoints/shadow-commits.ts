import { CHECKPOINTS, LATEST, type ShadowQueries } from './shadow-queries'
import type { GitRun } from './shadow-git'
import type { NotCovered } from './left-out'
import type { Checkpoint, TakenCheckpoint } from './shadow-types'

/** A checkpoint with its tree. */
export interface CheckpointWithTree {
  checkpoint: Checkpoint
  tree: string
}

/**
 * Writes a store's checkpoints: each a commit with no parent, under a dated ref of its own and
 * named the newest. Remembers the one it wrote last, so what follows it needs no git run to
 * know its tree.
 */
export class CheckpointCommits {
  /** The checkpoint this store made last, with its tree: a restore commits after it at once. */
  committed: CheckpointWithTree | null = null

  constructor(
    private readonly git: (args: string[], options?: GitRun) => Promise<string>,
    private readonly queries: ShadowQueries,
    private readonly now: () => number
  ) {}

  /** `last` with its tree: remembered for the one this store made last, asked of git otherwise. */
  async baseOf(
    last: CheckpointWithTree | TakenCheckpoint | null
  ): Promise<CheckpointWithTree | null> {
    if (!last) return null
    if ('tree' in last) return last
    if (this.committed?.checkpoint.id === last.id) return this.committed
    return this.queries.describeWithTree(last.id)
  }

  /**
   * `tree` as a checkpoint after `base` (or `base` itself when it has that tree). Named the
   * newest only once `before` has settled, and not at all when it failed.
   */
  async commitTree(
    tree: string,
    reason: string,
    sessionId: string | null,
    base: CheckpointWithTree | null,
    notCovered: NotCovered[],
    before?: Promise<unknown>
  ): Promise<TakenCheckpoint> {
    const previous = base?.checkpoint.id ?? null
    if (base && base.tree === tree) {
      await before
      return { ...base.checkpoint, previous, notCovered }
    }
    // Never dated before the one it follows, so the list (sorted by date) stays newest first
    // when the clock stands still or is set back.
    const at = Math.max(this.now(), (base?.checkpoint.at ?? 0) + 1)
    const message = JSON.stringify({ reason, sessionId, at })
    const id = (await this.git(['commit-tree', tree, '-F', '-'], { input: message })).trim()
    await before
    const ref = `${CHECKPOINTS}${String(at).padStart(15, '0')}-${id.slice(0, 12)}`
    await this.git(['update-ref', '--stdin'], {
      input: `update ${ref} ${id}\nupdate ${LATEST} ${id}\n`
    })
    const taken = { id, at, reason, sessionId, previous, notCovered }
    this.committed = { checkpoint: { id, at, reason, sessionId }, tree }
    return taken
  }
}
