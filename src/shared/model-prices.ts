import { z } from 'zod'

/**
 * The day the built-in prices were copied from Anthropic's and OpenAI's pricing pages. Providers
 * change prices; a person who sees a different figure on their bill sets `prices` in Settings.
 */
export const PRICES_TAKEN = '2025-11-24'

/** US dollars per million tokens: fresh input, output, input written to and read from cache. */
export interface ModelPrice {
  input: number
  output: number
  cacheWrite: number
  cacheRead: number
}

/**
 * A provider's `prices` entry for one model, in US dollars per million tokens. A price left out
 * of a cache figure is charged at the input price: an estimate too high rather than too low.
 */
export const priceSettingsSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cache_write: z.number().nonnegative().optional(),
    cache_read: z.number().nonnegative().optional()
  })
  .strict()
export type PriceSettings = z.infer<typeof priceSettingsSchema>

/** What a turn cost, and which prices said so (`asOf`: the built-in table's date). */
export const turnCostSchema = z.object({
  usd: z.number(),
  source: z.enum(['table', 'settings']),
  asOf: z.string().optional()
})
export type TurnCost = z.infer<typeof turnCostSchema>

/** A model's price and where it came from, as the turn loop is handed it. */
export interface PricedModel {
  price: ModelPrice
  source: TurnCost['source']
}

/** The tokens a cost is computed from; `inputTokens` is the whole prompt, cache parts included. */
export interface PricedUsage {
  inputTokens: number
  outputTokens: number
  /** Prompt tokens read from the cache. */
  cachedTokens: number
  /** Prompt tokens written to the cache (Anthropic reports them; OpenAI bills them as input). */
  cacheWriteTokens?: number
}

// Anthropic bills a five-minute cache write at 1.25 times input and a read at a tenth of it.
const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead: input / 10
})
// OpenAI caches by itself: a write costs what input costs, a read its own discounted price.
const openai = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheWrite: input,
  cacheRead
})

const anthropicPrices: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-3-5-sonnet': anthropic(3, 15),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-opus': anthropic(15, 75),
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }
}

const openaiPrices: Readonly<Record<string, ModelPrice>> = {
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  o1: openai(15, 60, 7.5),
  o3: openai(2, 8, 0.5),
  'o3-mini': openai(1.1, 4.4, 0.55),
  'o4-mini': openai(1.1, 4.4, 0.275)
}

/** One row of the built-in table, as Settings lists it. */
export interface BuiltInPrice {
  kind: 'anthropic' | 'openai'
  model: string
  price: ModelPrice
}

/** The built-in table (taken on PRICES_TAKEN), Anthropic's models first. */
export function builtInPrices(): BuiltInPrice[] {
  const rows = (kind: BuiltInPrice['kind'], table: Readonly<Record<string, ModelPrice>>) =>
    Object.entries(table).map(([model, price]) => ({ kind, model, price }))
  return [...rows('anthropic', anthropicPrices), ...rows('openai', openaiPrices)]
}

// A dated snapshot or alias of a listed model costs what the model costs; any other suffix
// (`-pro`, `-codex`, `-audio`) is another model with its own price, so it is not guessed.
const versionSuffix = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/

/**
 * The built-in price of `model` at a provider of kind `kind`, or null when the table does not
 * know it. Only Anthropic's and OpenAI's own APIs are priced: an OpenAI-compatible server
 * (Ollama, OpenRouter) names models after others but bills, or not, by its own prices.
 */
export function tablePrice(kind: string | null, model: string): ModelPrice | null {
  const table = kind === 'anthropic' ? anthropicPrices : kind === 'openai' ? openaiPrices : null
  if (!table) return null
  const name = model.trim().toLowerCase()
  // Own keys only: a model named `constructor` must not find Object's.
  if (Object.hasOwn(table, name)) return table[name] ?? null
  let best: string | null = null
  for (const key of Object.keys(table)) {
    if (!name.startsWith(key) || !versionSuffix.test(name.slice(key.length))) continue
    if (best === null || key.length > best.length) best = key
  }
  return best === null ? null : (table[best] ?? null)
}

/** A `prices` entry of the settings as a price, cache figures defaulting to the input price. */
export function priceFromSettings(entry: PriceSettings): ModelPrice {
  return {
    input: entry.input,
    output: entry.output,
    cacheWrite: entry.cache_write ?? entry.input,
    cacheRead: entry.cache_read ?? entry.input
  }
}

/** The price of a model: the provider's own `prices` entry first, else the built-in table. */
export function modelPrice(
  kind: string | null,
  model: string,
  overrides?: Readonly<Record<string, PriceSettings>>
): PricedModel | null {
  const entry = overrides && Object.hasOwn(overrides, model) ? overrides[model] : undefined
  if (entry) return { price: priceFromSettings(entry), source: 'settings' }
  const price = tablePrice(kind, model)
  return price ? { price, source: 'table' } : null
}

/** What `usage` cost at `priced`, in US dollars. */
export function costOf(usage: PricedUsage, priced: PricedModel): TurnCost {
  const { price } = priced
  const written = usage.cacheWriteTokens ?? 0
  const fresh = Math.max(0, usage.inputTokens - usage.cachedTokens - written)
  const micro =
    fresh * price.input +
    written * price.cacheWrite +
    usage.cachedTokens * price.cacheRead +
    usage.outputTokens * price.output
  return {
    usd: micro / 1_000_000,
    source: priced.source,
    ...(priced.source === 'table' ? { asOf: PRICES_TAKEN } : {})
  }
}

/** "$0.0123": a cost as the CLI and the window print it (cents for anything over a dollar). */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`
}

const OWN = { enumerable: true, writable: true, configurable: true } as const

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * One provider's settings (or the fields a form keeps beside its own) with the price of `model`
 * set to `entry`, or removed with null; an emptied `prices` is removed too.
 */
export function withModelPrice(
  provider: Record<string, unknown>,
  model: string,
  entry: PriceSettings | null
): Record<string, unknown> {
  const prices: Record<string, unknown> = isRecord(provider.prices) ? { ...provider.prices } : {}
  // Defined, not assigned: a model named `__proto__` must be a key, not a new prototype.
  if (entry) Object.defineProperty(prices, model, { value: entry, ...OWN })
  else delete prices[model]
  const next: Record<string, unknown> = { ...provider, prices }
  if (Object.keys(prices).length === 0) delete next.prices
  return next
}
