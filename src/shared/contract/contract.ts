import { z } from 'zod'
import {
  approvalRequestSchema,
  rulePreviewSchema,
  ruleScopeSchema,
  rulesViewSchema,
  modelRefSchema,
  sessionSummarySchema,
  todoItemSchema,
  toolDescriptorSchema,
  transcriptItemSchema,
  usageSchema
} from '../domain'
import { mcpLogLineSchema, mcpStatusSchema } from '../mcp'
import { jobSummarySchema } from '../jobs'
import {
  memoryDetailSchema,
  memoryListItemSchema,
  memoryRevisionSchema,
  memoryScopeSchema
} from '../memory'
import { providerSettingsSchema } from '../settings'
import { modelInfoSchema } from '../models'
import { sessionProfileSchema } from '../session-profile'
import { searchResultSchema } from '../websearch'
import {
  commandViewSchema,
  instructionFileSchema,
  questionSchema,
  skillViewSchema
} from '../skills'
import type { CallName, EventName } from './names'

const none = z.object({}).strict()
const sessionRef = z.object({ sessionId: z.string().min(1) }).strict()
const folderPath = z.string().min(1, 'give the path of a folder')
const jobRef = z.object({ jobId: z.string().min(1) }).strict()

const rulesTarget = z
  .object({ workspace: folderPath, sessionId: z.string().min(1).optional() })
  .strict()

const settingsIssueSchema = z.object({ path: z.string(), message: z.string() })

const memoryTarget = { scope: memoryScopeSchema, workspace: folderPath.optional() }
const memoryChange = z
  .object({ ...memoryTarget, name: z.string().min(1), expectedVersion: z.string().min(1) })
  .strict()
/** A memory with its history and its first revision (who created it, and when). */
const memoryInspection = memoryDetailSchema.extend({ origin: memoryRevisionSchema.nullable() })

interface CallSpec {
  input: z.ZodType
  output: z.ZodType
}

/** Every call the renderer (or the CLI) can make: name → {input, output}. */
export const calls = {
  'app.info': {
    input: none,
    output: z.object({
      mode: z.enum(['electron', 'browser', 'cli']),
      version: z.string(),
      dataDir: z.string(),
      canPickFolder: z.boolean(),
      canStoreSecrets: z.boolean(),
      workspace: z.string().nullable()
    })
  },
  'workspace.recent': {
    input: none,
    output: z.object({ folders: z.array(z.object({ path: z.string(), openedAt: z.number() })) })
  },
  'workspace.open': {
    input: z.object({ path: folderPath }).strict(),
    output: z.object({ path: z.string(), openedElsewhere: z.boolean() })
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
    input: sessionRef,
    output: z.object({
      session: sessionSummarySchema,
      transcript: z.array(transcriptItemSchema),
      pendingApprovals: z.array(approvalRequestSchema),
      /** The plan the model keeps with the Todo tool; empty until it makes one. */
      todos: z.array(todoItemSchema).default([]),
      /** AskUser questions still waiting for the person. */
      pendingQuestions: z.array(questionSchema).default([])
    })
  },
  'session.send': {
    input: z.object({ sessionId: z.string().min(1), text: z.string().min(1) }).strict(),
    output: z.object({ turnId: z.string() })
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
  'session.delete': {
    input: sessionRef,
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
    input: z.object({ sessionId: z.string().min(1), itemKey: z.string().min(1) }).strict(),
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
  'tools.list': {
    // With a workspace, its MCP servers' tools are listed too.
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: z.object({ tools: z.array(toolDescriptorSchema) })
  },
  /** The MCP servers for a project folder (started on first ask); without one, just settings. */
  'mcp.status': {
    input: z.object({ workspace: folderPath.optional() }).strict(),
    output: mcpStatusSchema
  },
  'mcp.log': {
    input: z.object({ workspace: folderPath.optional(), name: z.string().min(1) }).strict(),
    output: z.object({ lines: z.array(mcpLogLineSchema) })
  },
  'mcp.restart': {
    input: z.object({ workspace: folderPath, name: z.string().min(1) }).strict(),
    output: mcpStatusSchema
  },
  /** Trusts (or stops trusting) project-defined servers for this project, by name. */
  'mcp.trust': {
    input: z
      .object({ workspace: folderPath, names: z.array(z.string().min(1)), trust: z.boolean() })
      .strict(),
    output: mcpStatusSchema
  },
  /** Fetches a server's prompt, its messages joined as text for the chat input. */
  'mcp.prompt': {
    input: z
      .object({
        workspace: folderPath,
        server: z.string().min(1),
        prompt: z.string().min(1),
        arguments: z.record(z.string(), z.string()).default({})
      })
      .strict(),
    output: z.object({ text: z.string() })
  },
  /** Reads servers from a Claude Desktop config or a `.mcp.json` (`mcpServers`), by path or text. */
  'mcp.import': {
    input: z.object({ path: z.string().min(1).optional(), text: z.string().optional() }).strict(),
    output: z.object({ servers: z.array(z.unknown()), notes: z.array(z.string()) })
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
  },
  /** Shell jobs of a project's sessions: background jobs, and foreground commands while they run. */
  'jobs.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ jobs: z.array(jobSummarySchema) })
  },
  /**
   * Starts following a job's output: the tail it keeps now, then `job.output` batches numbered
   * after `seq`. Each batch must be acknowledged (`jobs.ack`) or the job is paused to wait.
   */
  'jobs.output': {
    input: jobRef,
    output: z.object({ data: z.string(), seq: z.number(), droppedBytes: z.number() })
  },
  'jobs.unfollow': { input: jobRef, output: z.object({ ok: z.boolean() }) },
  'jobs.ack': {
    input: z.object({ jobId: z.string().min(1), chars: z.number().int().min(0) }).strict(),
    output: z.object({ ok: z.boolean() })
  },
  /** Stops a running job and everything it started. */
  'jobs.cancel': { input: jobRef, output: z.object({ cancelled: z.boolean() }) },
  /** Removes a finished job from the monitor. */
  'jobs.dismiss': { input: jobRef, output: z.object({ dismissed: z.boolean() }) },
  /** The person stops a running tool call (a foreground Shell command). */
  'tool.stop': {
    input: z.object({ sessionId: z.string().min(1), callId: z.string().min(1) }).strict(),
    output: z.object({ stopped: z.boolean() })
  },
  /**
   * The memory browser. Project scope needs `workspace`; the user scope ignores it. An empty
   * query lists every entry, forgotten ones too, most recent first; words search live ones.
   */
  'memory.search': {
    input: z
      .object({
        ...memoryTarget,
        query: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(500).optional()
      })
      .strict(),
    output: z.object({ items: z.array(memoryListItemSchema) })
  },
  'memory.inspect': {
    input: z.object({ ...memoryTarget, name: z.string().min(1) }).strict(),
    output: memoryInspection
  },
  /** Forget and Undo follow the tools' rule: `expectedVersion` must be the current version. */
  'memory.forget': {
    input: memoryChange,
    output: memoryInspection
  },
  'memory.undo': {
    input: memoryChange,
    output: memoryInspection
  },
  /** Settings → Search's Test button: one query over the chain as drafted (not yet saved). */
  'websearch.test': {
    input: z.object({ websearch: z.unknown(), query: z.string().trim().min(1).max(400) }).strict(),
    output: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        backend: z.string(),
        results: z.array(searchResultSchema),
        /** Backends tried before the one that answered, and why each failed. */
        failures: z.array(z.string())
      }),
      z.object({ ok: z.literal(false), error: z.string() })
    ])
  },
  /** The slash commands of a folder: built-ins, command files and skills, with name clashes. */
  'commands.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ commands: z.array(commandViewSchema), problems: z.array(z.string()) })
  },
  /** Every skill folder found for a project, skipped ones with the reason. */
  'skills.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ skills: z.array(skillViewSchema), enabled: z.boolean() })
  },
  /** The instruction files (AGENTS.md, CLAUDE.md) read into a project's system prompt. */
  'instructions.list': {
    input: z.object({ workspace: folderPath }).strict(),
    output: z.object({ files: z.array(instructionFileSchema) })
  },
  /** The person's answer to an AskUser question. */
  'question.answer': {
    input: z.object({ questionId: z.string().min(1), answer: z.string() }).strict(),
    output: z.object({ ok: z.boolean() })
  }
} satisfies Record<CallName, CallSpec>

/** Every event the main process sends: name → payload. */
export const events = {
  'session.updated': sessionSummarySchema,
  'transcript.item': z.object({ sessionId: z.string(), item: transcriptItemSchema }),
  'message.delta': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    messageId: z.string(),
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
    stopReason: z.string()
  }),
  'turn.failed': z.object({ sessionId: z.string(), turnId: z.string(), error: z.string() }),
  'mcp.updated': mcpStatusSchema,
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
  'question.asked': questionSchema,
  /** `answer` is null when the question was dropped (the turn stopped). */
  'question.resolved': z.object({
    questionId: z.string(),
    sessionId: z.string(),
    answer: z.string().nullable()
  })
} satisfies Record<EventName, z.ZodType>

export { providerSettingsSchema }

export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>

/** An event as it crosses a transport, and as `run --json` prints it (with `type`). */
export type AnyEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName]
