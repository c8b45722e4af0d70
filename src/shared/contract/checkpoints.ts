import { z } from 'zod'
import {
  checkpointFileSchema,
  checkpointStatusSchema,
  fileChangeSchema,
  restorePlanSchema
} from '../checkpoints'
import { folderPath, type CallSpec } from './call-spec'

/** A checkpoint's id: a commit id of the shadow store, never a git expression or an option. */
const checkpointId = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'give a checkpoint id')

/** Checkpoints: their status, a card's diffs, and restores (Rewind, Revert, Undo restore). */
export const calls = {
  /** Whether checkpoints are taken in a folder (and why not), and how many it has. */
  'checkpoints.status': {
    input: z.object({ workspace: folderPath }).strict(),
    output: checkpointStatusSchema
  },
  /** One file at two checkpoints of a session's folder: a card's diff. */
  'checkpoints.file': {
    input: z
      .object({
        sessionId: z.string().min(1),
        before: checkpointId,
        after: checkpointId,
        path: z.string().min(1)
      })
      .strict(),
    output: checkpointFileSchema
  },
  /**
   * What a restore would do, before it is done: to how the folder was before a user message
   * (Rewind) or at a checkpoint (a card's Revert, Undo restore), all files or only `files`.
   */
  'checkpoints.plan': {
    input: z
      .object({
        sessionId: z.string().min(1),
        to: z.union([
          z.object({ message: z.string().min(1) }).strict(),
          z.object({ checkpoint: checkpointId }).strict()
        ]),
        files: z.array(z.string().min(1)).optional()
      })
      .strict(),
    output: restorePlanSchema
  },
  /**
   * Puts the files back (checkpointing the folder first, so it can be undone) and records the
   * restore in the session. Refused with `conflict` when it would replace a file changed outside
   * the agent since its last checkpoint and `replaceChanged` is not set.
   */
  'checkpoints.restore': {
    input: z
      .object({
        sessionId: z.string().min(1),
        checkpoint: checkpointId,
        files: z.array(z.string().min(1)).optional(),
        replaceChanged: z.boolean(),
        /** What is restored, as a sentence ("Files restored to before “fix the tests”"). */
        label: z.string().trim().min(1).max(300)
      })
      .strict(),
    output: z.object({ undo: z.string(), changes: z.array(fileChangeSchema) })
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
