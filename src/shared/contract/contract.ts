import { z } from 'zod'
import {
  approvalRequestSchema,
  modelRefSchema,
  sessionSummarySchema,
  toolDescriptorSchema,
  transcriptItemSchema,
  usageSchema
} from '../domain'
import { providerSettingsSchema } from '../settings'
import type { CallName, EventName } from './names'

const none = z.object({}).strict()
const sessionRef = z.object({ sessionId: z.string().min(1) }).strict()
const folderPath = z.string().min(1, 'give the path of a folder')

const settingsIssueSchema = z.object({ path: z.string(), message: z.string() })

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
    input: z.object({ workspace: folderPath }).strict(),
    output: sessionSummarySchema
  },
  'session.get': {
    input: sessionRef,
    output: z.object({
      session: sessionSummarySchema,
      transcript: z.array(transcriptItemSchema),
      pendingApprovals: z.array(approvalRequestSchema)
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
  'session.setModel': {
    input: z.object({ sessionId: z.string().min(1), model: modelRefSchema }).strict(),
    output: sessionSummarySchema
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
      models: z.array(modelRefSchema),
      defaultModel: modelRefSchema.nullable()
    })
  },
  'secrets.store': {
    input: z.object({ name: z.string().min(1), value: z.string().min(1) }).strict(),
    output: z.object({ stored: z.boolean() })
  },
  'tools.list': {
    input: none,
    output: z.object({ tools: z.array(toolDescriptorSchema) })
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
  'turn.failed': z.object({ sessionId: z.string(), turnId: z.string(), error: z.string() })
} satisfies Record<EventName, z.ZodType>

export { providerSettingsSchema }

export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>
export type EventPayload<N extends EventName> = z.infer<(typeof events)[N]>

/** An event as it crosses a transport, and as `run --json` prints it (with `type`). */
export type AnyEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName]
