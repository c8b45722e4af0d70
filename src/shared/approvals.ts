import { z } from 'zod'
import { capabilitiesSchema } from './domain'

// A call waiting for a person, and the permission rules a person keeps: what the approval
// dialog and the rule editor show.

/**
 * What the permission rules' shell parser found in a Shell call, for the approval dialog: the
 * simple commands it will run (those inside substitutions and `bash -c` included), the files it
 * opens by redirection, its substitutions, and why its words alone cannot be trusted.
 */
export const approvalShellSchema = z.object({
  commands: z.array(z.string()),
  redirections: z.array(z.object({ source: z.string(), access: z.enum(['read', 'write']) })),
  substitutions: z.array(z.string()),
  concerns: z.array(z.string())
})
export type ApprovalShell = z.infer<typeof approvalShellSchema>

/**
 * What a call that is not read-only changes, as its tool declares it, for the dialog's first
 * badge: a memory note is not a file, and a tool that says no more (an MCP tool) is only said to
 * be able to change something. `nothing`: a read-only tool.
 */
export const changeKindSchema = z.enum(['nothing', 'files', 'memory', 'commands', 'other'])
export type ChangeKind = z.infer<typeof changeKindSchema>

/**
 * The change a call proposes, for the same numbered diff view the card shows (Write's content:
 * `before` empty, so every line reads as added; Edit's old and new text).
 */
export const approvalPreviewSchema = z.object({
  kind: z.literal('diff'),
  path: z.string(),
  before: z.string(),
  after: z.string()
})
export type ApprovalPreview = z.infer<typeof approvalPreviewSchema>

export const approvalRequestSchema = z.object({
  approvalId: z.string(),
  sessionId: z.string(),
  callId: z.string(),
  tool: z.string(),
  input: z.unknown(),
  readOnly: z.boolean(),
  capabilities: capabilitiesSchema,
  /** What the call will do, in one plain sentence, as its tool says it. */
  sentence: z.string(),
  changes: changeKindSchema,
  /** The change the call proposes, when its tool shows one (Write, Edit). */
  preview: approvalPreviewSchema.optional(),
  /** Why a person is asked: the mode, or a rule that says to prompt. */
  reason: z.string().optional(),
  /**
   * False when no permission rule could allow this call (a write into .git, a shell line that
   * cannot be proven harmless): the window then offers no "Always allow".
   */
  ruleCanAllow: z.literal(false).optional(),
  /** A Shell call's command as the parser read it (absent for other tools). */
  shell: approvalShellSchema.optional()
})
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>

/** Where a permission rule is kept: this session, this project's settings, or the user's. */
export const ruleScopeSchema = z.enum(['session', 'project', 'user'])
export type RuleScope = z.infer<typeof ruleScopeSchema>

export const permissionRuleViewSchema = z.object({
  tool: z.string(),
  command: z.string().optional(),
  decision: z.enum(['allow', 'prompt', 'forbid']),
  match: z.array(z.string()).optional(),
  not_match: z.array(z.string()).optional()
})

/** Every scope's rules, as the settings screen lists them. */
export const rulesViewSchema = z.object({
  session: z.array(permissionRuleViewSchema),
  /** A project's `allow` rules apply only once the person has seen them (`trusted`). */
  project: z.object({
    path: z.string(),
    rules: z.array(permissionRuleViewSchema),
    trusted: z.boolean()
  }),
  user: z.object({ path: z.string(), rules: z.array(permissionRuleViewSchema) })
})
export type RulesView = z.infer<typeof rulesViewSchema>

/** What a proposed rule would cover, shown before the person saves it. */
export const rulePreviewSchema = z.object({
  description: z.string(),
  /** Earlier calls in this session that the rule would also have decided. */
  sessionMatches: z.array(z.string()),
  /** A problem with the rule as written (it cannot be saved), or null. */
  problem: z.string().nullable()
})
export type RulePreview = z.infer<typeof rulePreviewSchema>
