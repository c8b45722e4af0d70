import type { FileChange } from '../../shared/checkpoints'
import type { NotCovered } from './left-out'

export interface Checkpoint {
  /** The commit in the shadow store: what `restore` takes. */
  id: string
  at: number
  reason: string
  sessionId: string | null
}

export interface TakenCheckpoint extends Checkpoint {
  /** The checkpoint before this one (null for a folder's first). */
  previous: string | null
  /** Files left out, by path relative to the folder, with why. */
  notCovered: NotCovered[]
}

export type { FileChange }

/** What putting the folder back to a checkpoint would do, before it is done. */
export interface FolderPlan {
  changes: FileChange[]
  /**
   * Files the restore would replace that changed since the newest checkpoint: changed outside
   * the agent (by the person, an editor, a job still running). Replaced only when confirmed.
   */
  conflicts: string[]
  notCovered: NotCovered[]
}

export interface Restored {
  /** The checkpoint of the folder as it was just before: restoring it undoes this restore. */
  undo: TakenCheckpoint
  /** What the restore changed: the files it put back, removed or brought back. */
  changes: FileChange[]
  /**
   * Files it should have put back but left as they are, with why: a link where a folder was, a
   * folder that changed while it was being restored, a file made meanwhile. Empty when all went.
   */
  notRestored: NotRestored[]
}

/** A file a restore left as it is, and why, in words for the person. */
export interface NotRestored {
  path: string
  why: string
}

export interface ShadowStoreOptions {
  /** `<dataDir>/checkpoints`: one store per project folder lives below it. */
  root: string
  workspace: string
  /** The size limit, or how to read it (a setting that can change between checkpoints). */
  maxFileBytes?: number | (() => number)
  env?: NodeJS.ProcessEnv
  /** The clock checkpoints are dated by (tests set it; a checkpoint is never dated before the last). */
  now?: () => number
}
