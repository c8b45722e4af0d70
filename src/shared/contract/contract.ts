import { z } from 'zod'
import {
  folderTrustSchema,
  modelRefSchema,
  sessionSummarySchema,
  todoItemSchema,
  toolDescriptorSchema,
  transcriptItemSchema,
  usageSchema
} from '../domain'
import {
  approvalRequestSchema,
  rulePreviewSchema,
  ruleScopeSchema,
  rulesViewSchema
} from '../approvals'
import { elicitationSchema } from '../elicitation'
import { mcpStatusSchema } from '../mcp'
import { jobSummarySchema } from '../jobs'
import { memoryScopeSchema } from '../memory'
import { providerSettingsSchema } from '../settings'
import { sandboxViewSchema } from '../sandbox'
import { modelInfoSchema } from '../models'
import { turnCostSchema } from '../model-prices'
import { sessionProfileSchema } from '../session-profile'
import { questionSchema } from '../skills'
import { messageTextSchema } from './message-size'
import { sendInputSchema } from './send-input'
import type { CallName, EventName } from './names'
import {
  featureCalls,
  folderPath,
  none,
  sessionRef,
  settingsIssueSchema,
  type CallSpec
} from './feature-calls'

const rulesTarget = z
  .object({ workspace: folderPath, sessionId: z.string().min(1).optional() })
  .strict()

/** The core calls: the app, folders, sessions, approvals, settings and rules. */
const coreCalls = {
  'app.info': {
    input: none,
    output: z.object({
      mode: z.enum(['electron', 'browser', 'cli']),
      version: z.string(),
      dataDir: z.string(),
      canPickFolder: z.boolean(),
      canStoreSecrets: z.boolean(),
      /** Where typed keys are kept when a file (0600) keeps them, not the OS keychain. */
      keyFile: z.string().nullable().optional(),
      workspace: z.string().nullable()
    })
  },
  'workspace.recent': {
    input: none,
    output: z.object({ folders: z.array(z.object({ path: z.string(), openedAt: z.number() })) })
  },
  'workspace.open': {
    input: z.object({ path: folderPath }).strict(),
    // `trust` is `unknown` until the person is asked whether they trust the folder's authors.
    output: z.object({ path: z.string(), openedElsewhere: z.boolean(), trust: folderTrustSchema })
  },
  'workspace.setTrust': {
    input: z.object({ path: folderPath, trust: z.enum(['trusted', 'untrusted']) }).strict(),
    output: z.object({ path: z.string(), trust: folderTrustSchema })
  },
  'workspace.pickFolder': {
    input: none,
    output: z.object({ path: z.string().nullable() })
  },
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
  },
  'approval.respond': {
    input: z
      .object({
        approvalId: z.string().min(1),
        decision: z.enum(['allow', 'deny']),
        reason: z.string().optional()
      })
      .strict(),
    output: z.object({ ok: z.boolean() })
  },
  'settings.get': {
    input: none,
    output: z.object({
      path: z.string(),
      settings: z.unknown(),
      issues: z.array(settingsIssueSchema)
    })
  },
  'settings.save': {
    input: z.object({ settings: z.unknown() }).strict(),
    output: z.object({ saved: z.boolean(), issues: z.array(settingsIssueSchema) })
  },
  'provider.test': {
    input: z.object({ provider: z.unknown() }).strict(),
    output: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), models: z.array(z.string()) }),
      z.object({ ok: z.literal(false), error: z.string() })
    ])
  },
  'provider.models': {
    input: none,
    output: z.object({
      models: z.array(modelInfoSchema),
      defaultModel: modelRefSchema.nullable()
    })
  },
  'secrets.store': {
    input: z.object({ name: z.string().min(1), value: z.string().min(1) }).strict(),
    output: z.object({ stored: z.boolean() })
  },
  'rules.list': {
    input: rulesTarget,
    output: rulesViewSchema
  },
  'rules.add': {
    input: z
      .object({
        workspace: folderPath,
        sessionId: z.string().min(1).optional(),
        scope: ruleScopeSchema,
        rule: z.unknown()
      })
      .strict(),
    output: rulesViewSchema
  },
  'rules.remove': {
    input: z
      .object({
        workspace: folderPath,
        sessionId: z.string().min(1).optional(),
        scope: ruleScopeSchema,
        index: z.number().int().min(0)
      })
      .strict(),
    output: rulesViewSchema
  },
  'rules.trustProject': {
    input: rulesTarget,
    output: rulesViewSchema
  },
  'rules.preview': {
    input: z
      .object({ workspace: folderPath, sessionId: z.string().min(1).optional(), rule: z.unknown() })
      .strict(),
    output: rulePreviewSchema
  },
  /** Where Shell stands under the settings in force: confined (and how), not, or refused. */
  'sandbox.status': {
    input: z.object({}).strict(),
    output: z.object({
      state: z.enum(['confined', 'unconfined', 'refused', 'checking']),
      /** "confined (bubblewrap), network off", "not confined (…)", "refused: …". */
      text: z.string()
    })
  },
  /**
   * What a confined command sees under the settings in force, folder by folder, in `workspace`
   * (or in no project folder): for Settings → Permissions → Sandbox.
   */
  'sandbox.view': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: sandboxViewSchema
  },
  'tools.list': {
    // With a workspace, its MCP servers' tools are listed too.
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: z.object({ tools: z.array(toolDescriptorSchema) })
  }
  /** The MCP servers for a project folder (started on first ask); without one, just settings. */
}

/** Every call the renderer (or the CLI) can make: name → {input, output}. */
export const calls = { ...coreCalls, ...featureCalls } satisfies Record<CallName, CallSpec>

/** Every event the main process sends: name → payload. */
export const events = {
  'session.updated': sessionSummarySchema,
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
  'approval.requested': approvalRequestSchema,
  'approval.resolved': z.object({
    approvalId: z.string(),
    sessionId: z.string(),
    decision: z.enum(['allow', 'deny'])
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
  'mcp.updated': mcpStatusSchema,
  /** A server asks the person for input; never recorded in a session's log. */
  'mcp.elicitation.asked': elicitationSchema,
  /** The request was answered, declined, cancelled or given up: its dialog closes. */
  'mcp.elicitation.resolved': z.object({ elicitationId: z.string(), workspace: z.string() }),
  'todo.updated': z.object({ sessionId: z.string(), items: z.array(todoItemSchema) }),
  'job.updated': jobSummarySchema,
  'job.output': z.object({ jobId: z.string(), data: z.string(), seq: z.number() }),
  'job.dismissed': z.object({ jobId: z.string() }),
  /** A memory changed (by a tool or in the browser); `workspace` is null for the user scope. */
  'memory.changed': z.object({
    scope: memoryScopeSchema,
    workspace: z.string().nullable(),
    name: z.string()
  }),
  /** A settings file's problems changed: the user's (`workspace` null) or a project's. */
  'settings.status': z.object({ workspace: z.string().nullable() }),
  'question.asked': questionSchema,
  /** `answer` is null when the question was dropped (the turn stopped). */
  'question.resolved': z.object({
    questionId: z.string(),
    sessionId: z.string(),
    answer: z.string().nullable()
  }),
  /** The person clicked the desktop notification shown with this tag (see `app.notify`). */
  'notification.clicked': z.object({ tag: z.string() })
} satisfies Record<EventName, z.ZodType>

export { providerSettingsSchema }

export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>

/** An event as it crosses a transport, and as `run --json` prints it (with `type`). */
export type AnyEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName]
