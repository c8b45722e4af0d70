import { z } from 'zod'
import { modelRefSchema } from './domain'
import { modelReasoningSchema } from './reasoning'

/**
 * One configured model as DiscoverModels and the window's model picker describe it: the exact
 * ids to choose it by, how much it can read, and whether it takes images. Never a key, a key's
 * name or a base URL (which may carry credentials).
 */
export const modelInfoSchema = modelRefSchema.extend({
  providerKind: z.string().optional(),
  /** Tokens, from the provider's `context_windows`, else the built-in table, else 128k. */
  contextWindow: z.number().optional(),
  images: z.boolean().optional(),
  isDefault: z.boolean().optional(),
  /** Its thinking budget or reasoning effort from the settings; absent: off. */
  reasoning: modelReasoningSchema.optional()
})
export type ModelInfo = z.infer<typeof modelInfoSchema>

/** "200k", "1M": a context window as the picker shows it. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}k`
  return String(tokens)
}
