import { z } from 'zod'
import { provenanceSchema } from './provenance'

/** `project`: one project folder's memories. `user`: the user model, shared by every project. */
export const memoryScopeSchema = z.enum(['project', 'user'])
export type MemoryScope = z.infer<typeof memoryScopeSchema>

/** What a revision did: wrote content, tombstoned it, or restored the state before the last one. */
export const memoryRevisionKindSchema = z.enum(['remember', 'forget', 'undo'])
export type MemoryRevisionKind = z.infer<typeof memoryRevisionKindSchema>

/** One memory as it is now. `content` is null while it holds nothing (forgotten). */
export const memoryEntrySchema = z.object({
  scope: memoryScopeSchema,
  name: z.string(),
  /** Opaque; Forget and Undo must be given the current one. */
  version: z.string(),
  state: z.enum(['live', 'forgotten']),
  content: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The kind of the latest revision, and the session that made it (null: a person, here). */
  lastKind: memoryRevisionKindSchema,
  sessionId: z.string().nullable(),
  /** Where the current content came from: reading untrusted content is untrusted input. */
  provenance: provenanceSchema
})
export type MemoryEntry = z.infer<typeof memoryEntrySchema>

/** A row of the memory browser's list: the entry and the text to show, hits highlighted. */
export const memoryListItemSchema = memoryEntrySchema.extend({
  snippet: z.object({
    text: z.string(),
    /** [start, end) character offsets of the search terms within `text`. */
    ranges: z.array(z.tuple([z.number(), z.number()]))
  })
})
export type MemoryListItem = z.infer<typeof memoryListItemSchema>

export const memoryRevisionSchema = z.object({
  version: z.string(),
  kind: memoryRevisionKindSchema,
  /** The state the revision left: null when it left nothing. */
  content: z.string().nullable(),
  sessionId: z.string().nullable(),
  at: z.number(),
  /** Where the content it left came from (an undo's: the words it brought back, and its own). */
  provenance: provenanceSchema
})
export type MemoryRevision = z.infer<typeof memoryRevisionSchema>

/** A memory with its latest revisions, newest first, and how many it has in all. */
export const memoryDetailSchema = z.object({
  entry: memoryEntrySchema,
  history: z.array(memoryRevisionSchema),
  totalRevisions: z.number()
})
export type MemoryDetail = z.infer<typeof memoryDetailSchema>
