import { z } from 'zod'
import { searchResultSchema } from '../websearch'
import { type CallSpec } from './call-spec'

/** Settings → Search. */
export const calls = {
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
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
