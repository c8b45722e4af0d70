import { z } from 'zod'
import {
  modelRefSchema,
  sessionSummarySchema,
  todoItemSchema,
  transcriptItemSchema,
  usageSchema
} from '../domain'
import { turnCostSchema } from '../model-prices'
import { messageTextSchema } from './message-size'
import { sendInputSchema } from './send-input'
import { sessionRef, type CallSpec } from './call-spec'

/** The conversation: sending and editing messages, branches, stopping, the model and planning mode, and what a turn streams. */
export const calls = {
  /** With `attachments`, `text` may be empty; images go only to a model that takes them. */
  'session.send': {
    input: sendInputSchema,
    output: z.object({ turnId: z.string() })
  },
  /**
   * Sends `text` as a new version of the user message `itemKey`: a new branch of the
   * conversation from the point before it, shown from now on; the older branch is kept. The
   * same text again regenerates the reply (or retries a failed turn).
   */
  'session.edit': {
    input: z
      .object({ sessionId: z.string().min(1), itemKey: z.string().min(1), text: messageTextSchema })
      .strict(),
    output: z.object({ turnId: z.string() })
  },
  /** Shows the branch of the user message `itemKey`, one of the versions of a message. */
  'session.selectBranch': {
    input: z.object({ sessionId: z.string().min(1), itemKey: z.string().min(1) }).strict(),
    output: sessionSummarySchema
  },
  'session.cancel': {
    input: sessionRef,
    output: z.object({ cancelled: z.boolean() })
  },
  'session.setPlanning': {
    input: z.object({ sessionId: z.string().min(1), planning: z.boolean() }).strict(),
    output: sessionSummarySchema
  },
  'session.setModel': {
    input: z.object({ sessionId: z.string().min(1), model: modelRefSchema }).strict(),
    output: sessionSummarySchema
  },
  /** The person takes one branch of a select-mode Parallel run: applied, every copy removed. */
  'parallel.take': {
    input: z
      .object({
        sessionId: z.string().min(1),
        runId: z.string().min(1),
        branch: z.number().int().min(0)
      })
      .strict(),
    output: z.object({ applied: z.array(z.string()) })
  }
} satisfies Record<string, CallSpec>

export const events = {
  'transcript.item': z.object({
    sessionId: z.string(),
    /** The item's identity while it changes (see transcriptKey): the window folds by it. */
    key: z.string(),
    item: transcriptItemSchema
  }),
  'message.delta': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    messageId: z.string(),
    /** The key of the assistant item this piece extends, announced before its first piece. */
    key: z.string(),
    delta: z.string()
  }),
  /** The person chose which version of a message to show (see session.selectBranch). */
  'branch.selected': z.object({
    sessionId: z.string(),
    parent: z.string().nullable(),
    child: z.string()
  }),
  /**
   * More thinking of a streaming reply, for the windows: `place` is its block's index in the
   * reply's `thinking`. Not recorded: each finished block comes as the reply's new state.
   */
  'thinking.delta': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    messageId: z.string(),
    key: z.string(),
    place: z.number().int().min(0),
    delta: z.string()
  }),
  'turn.started': z.object({ sessionId: z.string(), turnId: z.string() }),
  'turn.completed': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    usage: usageSchema,
    /** What the turn cost, from the price table or the settings; null when the model has none. */
    cost: turnCostSchema.nullable().optional(),
    stopReason: z.string()
  }),
  'turn.failed': z.object({ sessionId: z.string(), turnId: z.string(), error: z.string() }),
  'todo.updated': z.object({ sessionId: z.string(), items: z.array(todoItemSchema) })
} satisfies Record<string, z.ZodType>
