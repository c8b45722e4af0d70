import { z } from 'zod'
import {
  approvalRequestSchema,
  rulePreviewSchema,
  ruleScopeSchema,
  rulesViewSchema
} from '../approvals'
import { folderPath, type CallSpec } from './call-spec'

const rulesTarget = z
  .object({ workspace: folderPath, sessionId: z.string().min(1).optional() })
  .strict()

/** Approvals a person answers and the permission rules of every scope. */
export const calls = {
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
  }
} satisfies Record<string, CallSpec>

export const events = {
  'approval.requested': approvalRequestSchema,
  'approval.resolved': z.object({
    approvalId: z.string(),
    sessionId: z.string(),
    decision: z.enum(['allow', 'deny'])
  })
} satisfies Record<string, z.ZodType>
