import { z } from 'zod'
import { approvalModeSchema } from './domain'

const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, not a key')

export const providerKindSchema = z.enum(['anthropic', 'openai', 'openai-compatible'])
export type ProviderKind = z.infer<typeof providerKindSchema>

/** A provider never holds a key: only the name of the variable (or stored secret) that does. */
export const providerSettingsSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'use lowercase letters, digits, ".", "_" or "-"'),
    kind: providerKindSchema,
    base_url: z.url().optional(),
    api_key_env: envVarName.optional(),
    api_key_secret: z.string().min(1).optional(),
    models: z.array(z.string().min(1)).default([])
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.kind === 'openai-compatible' && !p.base_url) {
      ctx.addIssue({
        code: 'custom',
        path: ['base_url'],
        message:
          'an OpenAI-compatible provider needs a base URL (for Ollama: http://127.0.0.1:11434/v1)'
      })
    }
  })
export type ProviderSettings = z.infer<typeof providerSettingsSchema>

export const settingsSchema = z
  .object({
    providers: z.array(providerSettingsSchema).default([]),
    default_model: z
      .object({ provider: z.string().min(1), model: z.string().min(1) })
      .strict()
      .optional(),
    permissions: z
      .object({ mode: approvalModeSchema.default('ask') })
      .strict()
      .default({ mode: 'ask' }),
    max_tokens: z.number().int().positive().default(8192)
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>()
    s.providers.forEach((p, i) => {
      if (seen.has(p.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['providers', i, 'id'],
          message: `provider id "${p.id}" is used twice; ids must be unique`
        })
      }
      seen.add(p.id)
    })
    if (s.default_model && !seen.has(s.default_model.provider)) {
      ctx.addIssue({
        code: 'custom',
        path: ['default_model', 'provider'],
        message: `no provider has the id "${s.default_model.provider}"`
      })
    }
  })
export type Settings = z.infer<typeof settingsSchema>
export type SettingsInput = z.input<typeof settingsSchema>

/** One validation problem, with the dotted path of the setting it is about. */
export interface SettingsIssue {
  path: string
  message: string
}

export function describeIssues(error: z.ZodError): SettingsIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(top level)',
    message: issue.message
  }))
}
