import { CHECKPOINTS, LATEST, type ShadowQueries } from './shadow-queries'
import type { GitRun } from './shadow-git'
import type { NotCovered } from './left-out'
import type { Checkpoint, TakenCheckpoint } from './shadow-types'
import { commitText, writeCommit, writeRefs } from './loose-writes'

/** How many checkpoints' trees a store keeps in mind. */
const REMEMBERED_TREES = 256

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
  /** The trees of the checkpoints written lately, oldest first. */
  private readonly trees = new Map<string, string>()

  constructor(
    private readonly gitDir: string,
    private readonly git: (args: string[], options?: GitRun) => Promise<string>,
    private readonly queries: ShadowQueries,
    private readonly now: () => number
  ) {}

  /**
   * The tree of a checkpoint: remembered for the ones this store wrote lately (a restore most
   * often goes back to one of those), asked of git otherwise.
   */
  async treeOf(id: string): Promise<string> {
    const known = this.trees.get(id)
    if (known) return known
    return (await this.git(['rev-parse', '--verify', `${id}^{tree}`])).trim()
  }

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
    const id = writeCommit(this.gitDir, commitText(tree, message, Math.floor(at / 1000)))
    await before
    const ref = `${CHECKPOINTS}${String(at).padStart(15, '0')}-${id.slice(0, 12)}`
    const written = writeRefs(this.gitDir, [
      [ref, id],
      [LATEST, id]
    ])
    if (!written) {
      await this.git(['update-ref', '--stdin'], {
        input: `update ${ref} ${id}\nupdate ${LATEST} ${id}\n`
      })
    }
    const taken = { id, at, reason, sessionId, previous, notCovered }
    this.committed = { checkpoint: { id, at, reason, sessionId }, tree }
    this.trees.set(id, tree)
    if (this.trees.size > REMEMBERED_TREES) this.trees.delete(this.trees.keys().next().value ?? '')
    return taken
  }
}
