import { z } from 'zod'
import { attachmentSchema } from './attachments'
import { callFilesSchema, fileChangeSchema } from './checkpoints'
import { sessionProfileSchema } from './session-profile'
import { thinkingBlockSchema } from './reasoning'
import { turnCostSchema } from './model-prices'
import { sessionTotalsSchema } from './meters'
// The tool outputs live in tool-output.ts; they are part of the domain every side reads.
export {
  branchChangeSchema,
  childStepSchema,
  contentBlockSchema,
  grepMatchSchema,
  spillInfoSchema,
  toolDisplaySchema,
  toolOutputSchema,
  type BranchChange,
  type ChildStep,
  type ContentBlock,
  type GrepMatch,
  type SpillInfo,
  type ToolDisplay,
  type ToolOutput
} from './tool-output'
import { toolOutputSchema } from './tool-output'

/** What a tool may do to the person's data and network; capabilities only ever widen. */
export const capabilitiesSchema = z.object({
  privateData: z.boolean(),
  untrustedInput: z.boolean(),
  egress: z.enum(['none', 'blind', 'chosen']),
  destructive: z.boolean()
})
export type Capabilities = z.infer<typeof capabilitiesSchema>

/**
 * Whether the person trusts the authors of a project folder: `unknown` until they are asked.
 * In a folder that is not trusted, what is read from it counts as untrusted input.
 */
export const folderTrustSchema = z.enum(['trusted', 'untrusted', 'unknown'])
export type FolderTrust = z.infer<typeof folderTrustSchema>

export const toolDescriptorSchema = z.object({
  name: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  /** Whether a call changes anything depends on the call (Subagent's tools, Parallel). */
  readOnlyByCall: z.boolean().optional(),
  source: z.string(),
  capabilities: capabilitiesSchema
})
export type ToolDescriptor = z.infer<typeof toolDescriptorSchema>

export const todoStatusSchema = z.enum(['pending', 'in_progress', 'done'])
export type TodoStatus = z.infer<typeof todoStatusSchema>

/** One step of the plan the model keeps with the Todo tool. */
export const todoItemSchema = z.object({ text: z.string(), status: todoStatusSchema })
export type TodoItem = z.infer<typeof todoItemSchema>

export const approvalModeSchema = z.enum(['allow', 'read-only', 'ask'])
export type ApprovalMode = z.infer<typeof approvalModeSchema>

export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number(),
  /** Of `inputTokens`, those written to the cache (Anthropic reports them; priced apart). */
  cacheWriteTokens: z.number().optional()
})
export type Usage = z.infer<typeof usageSchema>

export const modelRefSchema = z.object({ providerId: z.string(), model: z.string() })
export type ModelRef = z.infer<typeof modelRefSchema>

export const sessionSummarySchema = z.object({
  id: z.string(),
  workspace: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number(),
  model: modelRefSchema.nullable(),
  running: z.boolean(),
  /** What has entered the conversation; sends the model can aim are refused once both are. */
  taint: z.object({ privateData: z.boolean(), untrustedInput: z.boolean() }).optional(),
  /** Planning mode: only read-only tools are offered and run. */
  planning: z.boolean().optional(),
  /** Bytes of its recorded events; absent until it is recorded. */
  sizeBytes: z.number().optional(),
  /** The session this one was forked from. */
  forkedFrom: z.string().nullable().optional(),
  /** `no-fs`: no file, shell or delegation tools (absent: the default profile). */
  profile: sessionProfileSchema.optional(),
  /** `untrusted`: made in a folder whose authors are not trusted (absent: a trusted one). */
  folderTrust: z.literal('untrusted').optional(),
  /** Tokens and cost of all its turns, kept by main (see shared/meters.ts). */
  totals: sessionTotalsSchema.optional()
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

/**
 * Which view shows a call's result: `display` its structured display (a diff, a file list…) or
 * else its text; `terminal` what a terminal printed; `job` a command's, with its live output and
 * a Stop button while it runs.
 */
export const resultViewSchema = z.enum(['display', 'terminal', 'job'])
export type ResultView = z.infer<typeof resultViewSchema>

/**
 * How a call reads in a folded run of read-only calls: `one` for a single call ("read 1 file"),
 * `many` with `{n}` for the count ("read {n} files").
 */
export const groupPhraseSchema = z.object({ one: z.string(), many: z.string() })
export type GroupPhrase = z.infer<typeof groupPhraseSchema>

/**
 * What a call's card shows of it, as its tool declares it: main computes it from the tool's own
 * fields, so the window keeps no table of tool names.
 */
export const toolCardSchema = z.object({
  /** The header's line about the call's key arguments ("src/a.ts · lines 10–59"). */
  summary: z.string(),
  /** null: the call never folds into a group (it asks the person something, or shows the plan). */
  grouped: groupPhraseSchema.nullable(),
  resultView: resultViewSchema
})
export type ToolCard = z.infer<typeof toolCardSchema>

export const toolCallStateSchema = z.enum([
  'awaiting-approval',
  'running',
  'done',
  'failed',
  'denied'
])
export type ToolCallState = z.infer<typeof toolCallStateSchema>

/**
 * One tool call as the window shows it. `input` is what the model sent, parsed when it was JSON.
 * `id` is the call's identity in the session (its turn and its place in the turn), which cards,
 * approvals, jobs and saved outputs go by; `wireId` is the id the provider gave it, sent back
 * only to the provider (absent in sessions recorded before calls had identities of their own).
 */
export const toolCallViewSchema = z.object({
  id: z.string(),
  wireId: z.string().optional(),
  name: z.string(),
  input: z.unknown(),
  state: toolCallStateSchema,
  readOnly: z.boolean(),
  capabilities: capabilitiesSchema.nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  output: toolOutputSchema.nullable(),
  refusedBy: z.string().nullable(),
  /** Absent in records made before cards came from the tools (the window then shows a plain one). */
  card: toolCardSchema.optional(),
  /**
   * What a changing call did to the folder's files (see shared/checkpoints.ts): the call's own
   * checkpoint, and its background job's once that ends. Absent for read-only calls.
   */
  files: z.array(callFilesSchema).optional()
})
export type ToolCallView = z.infer<typeof toolCallViewSchema>

/**
 * A file through which git can be made to run programs (`.git/config`, a hook, attributes),
 * created, changed or removed during a turn; `path` as the window shows it.
 */
export const gitChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['created', 'changed', 'removed'])
})
export type GitChange = z.infer<typeof gitChangeSchema>

/** The transcript as the window renders it: one entry per user message, reply or tool call. */
export const transcriptItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    at: z.number(),
    /** Images and project files sent with the message (absent: none). */
    attachments: z.array(attachmentSchema).optional(),
    /** The checkpoint of the folder before this message's first change (what Rewind restores). */
    checkpoint: z.string().optional(),
    /**
     * The user message this one follows (its transcript key), null for a first message: an
     * edited message is a new version beside the old, following the same parent. Absent in
     * records from before branches: it follows the message before it.
     */
    parent: z.string().nullable().optional()
  }),
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    turnId: z.string(),
    text: z.string(),
    at: z.number(),
    streaming: z.boolean(),
    /** The model's thinking before the reply, kept as it came (signatures included). */
    thinking: z.array(thinkingBlockSchema).optional(),
    /** The connection broke mid-reply and the request was tried again: this text is all it got. */
    interrupted: z.boolean().optional(),
    /** While set, the request failed and is tried again after `waitMs` (see providers/retry.ts). */
    retry: z
      .object({
        reason: z.string(),
        waitMs: z.number(),
        attempt: z.number().int(),
        maxRetries: z.number().int()
      })
      .optional()
  }),
  z.object({ kind: z.literal('tool'), turnId: z.string(), call: toolCallViewSchema }),
  z.object({
    kind: z.literal('turn-end'),
    turnId: z.string(),
    usage: usageSchema,
    /** What the turn cost; null when its model has no price (absent: recorded before prices). */
    cost: turnCostSchema.nullable().optional(),
    stopReason: z.string(),
    error: z.string().nullable(),
    at: z.number(),
    /** What the turn did to git's own files (see workspace/git-control-files.ts); absent: nothing. */
    gitChanges: z.array(gitChangeSchema).optional()
  }),
  /** Older messages were replaced by `summary` (plus the state tools carried, verbatim). */
  z.object({
    kind: z.literal('compaction'),
    id: z.string(),
    turnId: z.string(),
    summary: z.string(),
    carried: z.string(),
    /** How many messages of the model's history the summary stands for. */
    summarised: z.number(),
    at: z.number()
  }),
  /**
   * The person put the folder's files back to a checkpoint (`to`); restoring `undo` (the folder
   * just before) takes it back. `label` says what was restored, as a sentence.
   */
  z.object({
    kind: z.literal('restore'),
    id: z.string(),
    to: z.string(),
    undo: z.string(),
    label: z.string(),
    changes: z.array(fileChangeSchema),
    at: z.number()
  })
])
export type TranscriptItem = z.infer<typeof transcriptItemSchema>
