import { z } from 'zod'

/**
 * `checkpoints:` in the user's settings. Mecatl records the project folder's files before and
 * after every change the agent makes (see src/main/checkpoints/), in its data directory.
 */
export const checkpointSettingsSchema = z
  .object({
    /** `false`: no checkpoints are taken (the window says so); earlier ones stay restorable. */
    enabled: z.boolean().default(true),
    /** Files larger than this are not stored, and restores say they are not covered. */
    max_file_mib: z.number().positive().max(1024).default(5),
    /** Checkpoints older than this many days are dropped, oldest first. */
    keep_days: z.number().int().min(1).max(3650).default(30),
    /** A project's store is kept under this many MiB by dropping its oldest checkpoints. */
    max_store_mib: z
      .number()
      .int()
      .min(16)
      .max(1024 * 1024)
      .default(2048)
  })
  .strict()
export type CheckpointSettings = z.infer<typeof checkpointSettingsSchema>
export const checkpointDefaults: CheckpointSettings = checkpointSettingsSchema.parse({})

export const fileChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'changed', 'deleted'])
})
export type FileChange = z.infer<typeof fileChangeSchema>

/** Most files one card lists; `more` counts the rest (an `npm install` touches thousands). */
export const CARD_CHANGES_SHOWN = 200

/**
 * What a changing call did to the folder's files, as its card shows it: the checkpoints before
 * and after it, and the files between them; or why no checkpoint could be taken.
 */
export const callFilesSchema = z.union([
  z.object({
    /** `call`: the call itself; `job`: its background job, from start to end. */
    during: z.enum(['call', 'job']),
    before: z.string(),
    after: z.string(),
    changes: z.array(fileChangeSchema),
    more: z.number().int().min(0),
    /** Files left out of the checkpoint (too big), which a restore cannot bring back. */
    notCovered: z.array(z.object({ path: z.string(), why: z.string() })).optional()
  }),
  z.object({ during: z.enum(['call', 'job']), failed: z.string() })
])
export type CallFiles = z.infer<typeof callFilesSchema>

/** Whether checkpoints are being taken in a folder, and why not. */
export const checkpointStatusSchema = z.object({
  on: z.boolean(),
  /** Why they are off (no git, turned off in Settings), or null. */
  why: z.string().nullable(),
  count: z.number().int().min(0)
})
export type CheckpointStatus = z.infer<typeof checkpointStatusSchema>

/** What restoring a checkpoint would do, shown before it is done. */
export const restorePlanSchema = z.object({
  /** The checkpoint restored to; null when the agent changed nothing since (nothing to do). */
  checkpoint: z.string().nullable(),
  changes: z.array(fileChangeSchema),
  /** Files changed since the newest checkpoint (outside the agent) that the restore replaces. */
  conflicts: z.array(z.string()),
  notCovered: z.array(z.object({ path: z.string(), why: z.string() })),
  /** Background jobs still running in the folder: they may change files again. */
  runningJobs: z.array(z.object({ id: z.string(), command: z.string() }))
})
export type RestorePlan = z.infer<typeof restorePlanSchema>

/** One file at two checkpoints, for the card's diff (null: absent there). */
export const checkpointFileSchema = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Not text, or too large to show: only that it changed. */
  shown: z.enum(['text', 'binary', 'too-large'])
})
export type CheckpointFile = z.infer<typeof checkpointFileSchema>
