import type { ModelRef } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import { providerSettingsFor } from './provider-settings'

/** Assumed when neither the settings nor the table know a model: most current models have more. */
export const DEFAULT_CONTEXT_WINDOW = 128_000

/** Rough bytes per token of code and English prose, erring low so the budget errs small. */
export const BYTES_PER_TOKEN = 3

/**
 * Context windows (tokens) of well-known models, by name prefix; the longest matching prefix
 * wins. Providers' own model names are used as given, so an OpenRouter name such as
 * `anthropic/claude-sonnet-4` matches after its `vendor/` part. A provider's
 * `context_windows` setting overrides this table.
 */
const knownWindows: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['claude-', 200_000],
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['deepseek-chat', 64_000],
  ['deepseek-reasoner', 64_000],
  ['mistral-large', 128_000],
  ['qwen2.5-coder', 32_768]
]

/**
 * The context window of `ref` in tokens: the provider's setting, else what its server said it
 * serves (`served`, from a local server: see served-context-window.ts), the table, the default.
 */
export function contextWindowFor(ref: ModelRef, settings: Settings, served?: number): number {
  const provider = providerSettingsFor(ref, settings)
  const configured = provider?.context_windows?.[ref.model]
  if (configured !== undefined) return configured
  if (served !== undefined) return served
  const name = ref.model.toLowerCase().split('/').at(-1) ?? ''
  let best: readonly [string, number] | undefined
  for (const entry of knownWindows) {
    if (name.startsWith(entry[0]) && entry[0].length > (best?.[0].length ?? 0)) best = entry
  }
  return best?.[1] ?? DEFAULT_CONTEXT_WINDOW
}

/**
 * A size that follows the model's context window unless a setting fixes it; `served` is the
 * window a local server says it serves, and with no model the default window counts.
 */
export type WindowSize = (ref: ModelRef | null, settings: Settings, served?: number) => number

const windowOf: WindowSize = (ref, settings, served) =>
  ref ? contextWindowFor(ref, settings, served) : DEFAULT_CONTEXT_WINDOW

/**
 * Bytes of tool output one turn's calls may add together: `tool_output_budget_bytes` when set,
 * else an eighth of the model's context window at about 3 bytes a token.
 */
export const outputBudgetBytes: WindowSize = (ref, settings, served) =>
  settings.tool_output_budget_bytes ??
  Math.floor(windowOf(ref, settings, served) / 8) * BYTES_PER_TOKEN

/** The share of the context window a prompt may fill before it is compacted. */
export const COMPACT_SHARE = 0.75

/**
 * Input tokens past which a session's older messages are summarised: `compact_at_tokens` when
 * set, else three quarters of the model's context window, leaving room for the reply and results.
 */
export const compactThreshold: WindowSize = (ref, settings, served) =>
  settings.compact_at_tokens ?? Math.floor(windowOf(ref, settings, served) * COMPACT_SHARE)
