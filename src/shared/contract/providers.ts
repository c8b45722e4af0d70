import { z } from 'zod'
import { modelRefSchema } from '../domain'
import { modelInfoSchema } from '../models'
import { none, type CallSpec } from './call-spec'

/** Model providers: testing one drafted in Settings, the models there are, and storing keys. */
export const calls = {
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
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
