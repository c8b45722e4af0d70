import { z } from 'zod'
import { folderPath, type CallSpec } from './call-spec'

/** A project's files as the window shows them: the Attach picker, the `@` finder and cut tool outputs. */
export const calls = {
  /** One folder of a session's project, for attaching a file: `path` relative, `''` the root. */
  'files.list': {
    input: z.object({ sessionId: z.string().min(1), path: z.string().max(4096) }).strict(),
    output: z.object({
      path: z.string(),
      entries: z.array(z.object({ name: z.string(), kind: z.enum(['file', 'folder']) })),
      /** Entries not listed, past the listing's limit. */
      more: z.number()
    })
  },
  /**
   * The `@` finder: a project's files and folders (`.gitignore` honoured, never `.git`) that
   * best match `query`, best first, from an index kept fresh by a file watcher. `positions` are
   * the matched characters of `path`; `complete` is false when the project has more paths than
   * the index keeps.
   */
  'files.find': {
    input: z
      .object({
        workspace: folderPath,
        query: z.string().max(500),
        limit: z.number().int().min(1).max(200).default(50)
      })
      .strict(),
    output: z.object({
      items: z.array(
        z.object({
          path: z.string(),
          kind: z.enum(['file', 'folder']),
          positions: z.array(z.number().int().min(0))
        })
      ),
      total: z.number().int(),
      complete: z.boolean()
    })
  },
  /** A cut tool output saved whole; only files in that session's own spill directory. */
  'spill.read': {
    input: z.object({ sessionId: z.string().min(1), path: z.string().min(1) }).strict(),
    output: z.object({
      path: z.string(),
      text: z.string(),
      totalBytes: z.number(),
      /** Less than totalBytes when the file is too large to show whole. */
      shownBytes: z.number()
    })
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
