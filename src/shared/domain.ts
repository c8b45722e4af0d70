import { z } from 'zod'

/** What a tool may do to the person's data and network; capabilities only ever widen. */
export const capabilitiesSchema = z.object({
  privateData: z.boolean(),
  untrustedInput: z.boolean(),
  egress: z.enum(['none', 'blind', 'chosen']),
  destructive: z.boolean()
})
export type Capabilities = z.infer<typeof capabilitiesSchema>

export const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() })
])
export type ContentBlock = z.infer<typeof contentBlockSchema>

export const toolOutputSchema = z.object({
  content: z.array(contentBlockSchema),
  isError: z.boolean(),
  external: z.boolean()
})
export type ToolOutput = z.infer<typeof toolOutputSchema>

export const toolDescriptorSchema = z.object({
  name: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  source: z.string(),
  capabilities: capabilitiesSchema
})
export type ToolDescriptor = z.infer<typeof toolDescriptorSchema>

export const approvalModeSchema = z.enum(['allow', 'read-only', 'ask'])
export type ApprovalMode = z.infer<typeof approvalModeSchema>

export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number()
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
  running: z.boolean()
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

export const toolCallStateSchema = z.enum([
  'awaiting-approval',
  'running',
  'done',
  'failed',
  'denied'
])
export type ToolCallState = z.infer<typeof toolCallStateSchema>

/** One tool call as the window shows it. `input` is what the model sent, parsed when it was JSON. */
export const toolCallViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  state: toolCallStateSchema,
  readOnly: z.boolean(),
  capabilities: capabilitiesSchema.nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  output: toolOutputSchema.nullable(),
  refusedBy: z.string().nullable()
})
export type ToolCallView = z.infer<typeof toolCallViewSchema>

/** The transcript as the window renders it: one entry per user message, reply or tool call. */
export const transcriptItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.string(), text: z.string(), at: z.number() }),
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    turnId: z.string(),
    text: z.string(),
    at: z.number(),
    streaming: z.boolean()
  }),
  z.object({ kind: z.literal('tool'), turnId: z.string(), call: toolCallViewSchema }),
  z.object({
    kind: z.literal('turn-end'),
    turnId: z.string(),
    usage: usageSchema,
    stopReason: z.string(),
    error: z.string().nullable(),
    at: z.number()
  })
])
export type TranscriptItem = z.infer<typeof transcriptItemSchema>

export const approvalRequestSchema = z.object({
  approvalId: z.string(),
  sessionId: z.string(),
  callId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  readOnly: z.boolean(),
  capabilities: capabilitiesSchema
})
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>
