import { z } from 'zod'
import { sessionSummarySchema, todoItemSchema, transcriptItemSchema } from '../domain'
import { approvalRequestSchema } from '../approvals'
import { sessionProfileSchema } from '../session-profile'
import { questionSchema } from '../skills'
import { sessionMetersSchema } from '../meters'
import { folderPath, sessionRef, type CallSpec } from './call-spec'

/** Sessions as records: listing, opening, renaming, deleting, searching, forking, exporting, and the chat header's meters. */
export const calls = {
  'session.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({
      sessions: z.array(sessionSummarySchema),
      // So a reopened window shows the questions still waiting in any of its sessions.
      pendingApprovals: z.array(approvalRequestSchema)
    })
  },
  'session.create': {
    input: z.object({ workspace: folderPath, profile: sessionProfileSchema.optional() }).strict(),
    output: sessionSummarySchema
  },
  'session.get': {
    input: sessionRef.extend({
      /** Only the newest `tail` items (a long session's first screen); the rest in a second read. */
      tail: z.number().int().positive().optional()
    }),
    output: z.object({
      session: sessionSummarySchema,
      transcript: z.array(transcriptItemSchema),
      /** How many items the branch shown holds: more than `transcript` when `tail` cut it. */
      total: z.number().int().nonnegative().optional(),
      /** `keys[i]` is the key of `transcript[i]` (see transcriptKey): the window folds by it. */
      keys: z.array(z.string()),
      pendingApprovals: z.array(approvalRequestSchema),
      /** The plan the model keeps with the Todo tool; empty until it makes one. */
      todos: z.array(todoItemSchema).default([]),
      /** AskUser questions still waiting for the person. */
      pendingQuestions: z.array(questionSchema).default([]),
      /** The user messages shown that have other versions (edits), with every version's key. */
      branches: z.array(z.object({ key: z.string(), siblings: z.array(z.string()) })).default([])
    })
  },
  'session.rename': {
    input: z.object({ sessionId: z.string().min(1), title: z.string().trim().min(1) }).strict(),
    output: sessionSummarySchema
  },
  /** With `checkpoints`, the checkpoints its turns took go too (the folder's newest stays). */
  'session.delete': {
    input: z.object({ sessionId: z.string().min(1), checkpoints: z.boolean().optional() }).strict(),
    output: z.object({ deleted: z.boolean() })
  },
  /** Recorded sessions of a folder whose title or messages contain `query`. */
  'session.search': {
    input: z.object({ workspace: folderPath, query: z.string().trim().min(1) }).strict(),
    output: z.object({
      hits: z.array(z.object({ session: sessionSummarySchema, snippet: z.string() }))
    })
  },
  /** A new session holding the transcript up to the item (`itemKey`, see transcriptKey). */
  'session.fork': {
    input: z
      .object({
        sessionId: z.string().min(1),
        itemKey: z.string().min(1),
        /** Keep only what came before the item (Rewind's conversation part). */
        before: z.boolean().optional()
      })
      .strict(),
    output: sessionSummarySchema
  },
  /** A recorded session as text: JSONL (its events, as `run --json` prints them) or Markdown. */
  'session.export': {
    input: z.object({ sessionId: z.string().min(1), format: z.enum(['jsonl', 'md']) }).strict(),
    output: z.object({ fileName: z.string(), text: z.string() })
  },
  /** The chat header's meters: the model's window and compaction threshold, the session's totals. */
  'session.meters': { input: sessionRef, output: sessionMetersSchema }
} satisfies Record<string, CallSpec>

export const events = {
  'session.updated': sessionSummarySchema
} satisfies Record<string, z.ZodType>
