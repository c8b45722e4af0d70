import { z } from 'zod'

/**
 * A block of the model's thinking, as Anthropic returns it: its text and the signature that lets
 * the API check it was not altered, or a redacted block whose `data` only the API can read. Both
 * must go back byte for byte in a tool-use turn, so they are kept exactly as they came.
 */
export const thinkingBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() })
])
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>

/** The smallest thinking budget the Anthropic API accepts. */
export const MIN_THINKING_BUDGET = 1024

export const reasoningEffortSchema = z.enum(['minimal', 'low', 'medium', 'high'])
export type ReasoningEffort = z.infer<typeof reasoningEffortSchema>

/**
 * How much one model reasons before it answers. `thinking_budget` (Anthropic: tokens of extended
 * thinking) and `effort` (OpenAI reasoning models' `reasoning_effort`); absent: thinking off.
 */
export const modelReasoningSchema = z
  .object({
    thinking_budget: z
      .number()
      .int()
      .min(
        MIN_THINKING_BUDGET,
        `the Anthropic API takes a budget of at least ${MIN_THINKING_BUDGET}`
      )
      .optional(),
    effort: reasoningEffortSchema.optional()
  })
  .strict()
export type ModelReasoning = z.infer<typeof modelReasoningSchema>

/** The text of the thinking blocks, as the collapsed block shows it (redacted ones say so). */
export function thinkingText(blocks: readonly ThinkingBlock[]): string {
  return blocks
    .map((block) => (block.type === 'thinking' ? block.thinking : '(redacted thinking)'))
    .join('\n\n')
}

/**
 * Each provider kind takes one of the two: a thinking budget means nothing to OpenAI and an
 * effort nothing to Anthropic, so the wrong one is an error, not silently dropped.
 */
export function checkReasoning(
  kind: 'anthropic' | 'openai' | 'openai-compatible',
  reasoning: Readonly<Record<string, ModelReasoning>>,
  ctx: z.RefinementCtx
): void {
  for (const [model, entry] of Object.entries(reasoning)) {
    if (kind === 'anthropic' && entry.effort !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['reasoning', model, 'effort'],
        message: 'Anthropic models take `thinking_budget` (tokens), not `effort`'
      })
    }
    if (kind !== 'anthropic' && entry.thinking_budget !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['reasoning', model, 'thinking_budget'],
        message: 'OpenAI reasoning models take `effort` (minimal, low, medium, high), not a budget'
      })
    }
  }
}

/** The reasoning setting of `model` in a provider's `reasoning` map (undefined: off). */
export function reasoningOf(
  provider: { reasoning?: Readonly<Record<string, ModelReasoning>> } | undefined,
  model: string
): ModelReasoning | undefined {
  const entry = provider?.reasoning?.[model]
  return entry && (entry.thinking_budget !== undefined || entry.effort !== undefined)
    ? entry
    : undefined
}

/** One choice of the window's reasoning menus: its label and the setting it stands for. */
export interface ReasoningChoice {
  label: string
  value: ModelReasoning | null
}

const budgets = [4096, 16_384, 32_768]
const efforts: readonly ReasoningEffort[] = reasoningEffortSchema.options

/**
 * What the window offers for a model of `kind`: off, then budgets (Anthropic) or efforts
 * (OpenAI and compatible). A budget set by hand to another figure is offered too, so the menu
 * always shows what the settings say.
 */
export function reasoningChoices(
  kind: string | undefined,
  current: ModelReasoning | undefined
): ReasoningChoice[] {
  const off: ReasoningChoice = { label: 'Thinking off', value: null }
  if (kind === 'anthropic') {
    const shown = new Set(budgets)
    if (current?.thinking_budget) shown.add(current.thinking_budget)
    return [
      off,
      ...[...shown]
        .sort((a, b) => a - b)
        .map((tokens) => ({
          label: `Think ${Math.round(tokens / 1024)}k`,
          value: { thinking_budget: tokens }
        }))
    ]
  }
  return [
    { label: 'Default effort', value: null },
    ...efforts.map((effort) => ({ label: `${effort} effort`, value: { effort } }))
  ]
}

/** A stable key for a choice, for `<select>` values. */
export function reasoningKey(value: ModelReasoning | null | undefined): string {
  if (value?.thinking_budget) return `budget:${value.thinking_budget}`
  if (value?.effort) return `effort:${value.effort}`
  return 'off'
}

/**
 * A provider entry (as the settings file holds it) with `model`'s reasoning set to `value`, or
 * removed (null). Everything else in the entry stays as it was; an empty map is dropped.
 */
export function withModelReasoning(
  provider: Record<string, unknown>,
  model: string,
  value: ModelReasoning | null
): Record<string, unknown> {
  const raw = provider['reasoning']
  const map: Record<string, unknown> =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw } : {}
  if (value) map[model] = value
  else delete map[model]
  const { reasoning: _dropped, ...rest } = provider
  void _dropped
  return Object.keys(map).length > 0 ? { ...rest, reasoning: map } : rest
}
