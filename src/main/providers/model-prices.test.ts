import { describe, expect, it } from 'vitest'
import { costOf, formatUsd, modelPrice, PRICES_TAKEN, tablePrice } from '../../shared/model-prices'
import { providerSettingsSchema, settingsSchema, type Settings } from '../../shared/settings'
import { priceForModel } from './model-price-lookup'

describe('the price table', () => {
  it('prices dated snapshots and aliases of a known model as the model', () => {
    expect(tablePrice('anthropic', 'claude-sonnet-4-5-20250929')?.input).toBe(3)
    expect(tablePrice('anthropic', 'claude-3-5-haiku-latest')?.output).toBe(4)
    expect(tablePrice('openai', 'gpt-4o-2024-08-06')?.input).toBe(2.5)
  })

  it('takes the longest name, so a mini model is not priced as its big sibling', () => {
    expect(tablePrice('openai', 'gpt-4o-mini')?.input).toBe(0.15)
    expect(tablePrice('openai', 'gpt-5-mini-2025-08-07')?.input).toBe(0.25)
    expect(tablePrice('anthropic', 'claude-opus-4-1-20250805')?.input).toBe(15)
    expect(tablePrice('anthropic', 'claude-opus-4-5')?.input).toBe(5)
  })

  it('guesses nothing: other variants, other kinds and unknown names have no price', () => {
    expect(tablePrice('openai', 'gpt-5-codex')).toBeNull()
    expect(tablePrice('openai', 'o3-pro')).toBeNull()
    expect(tablePrice('openai', 'gpt-4o\u0000')).toBeNull()
    expect(tablePrice('openai-compatible', 'gpt-4o')).toBeNull()
    expect(tablePrice('anthropic', 'gpt-4o')).toBeNull()
    expect(tablePrice(null, 'claude-sonnet-4-5')).toBeNull()
    expect(tablePrice('openai', 'constructor')).toBeNull()
    expect(tablePrice('openai', '__proto__')).toBeNull()
  })
})

describe('a turn’s cost', () => {
  it('charges fresh input, cache writes, cache reads and output each at its own price', () => {
    const priced = modelPrice('anthropic', 'claude-sonnet-4-5')
    expect(priced?.source).toBe('table')
    // 1M prompt tokens of which 600k read from cache and 100k written to it; 200k out.
    const cost = costOf(
      {
        inputTokens: 1_000_000,
        cachedTokens: 600_000,
        cacheWriteTokens: 100_000,
        outputTokens: 200_000
      },
      priced!
    )
    // 300k × $3 + 100k × $3.75 + 600k × $0.30 + 200k × $15, per million.
    expect(cost.usd).toBeCloseTo(0.9 + 0.375 + 0.18 + 3, 10)
    expect(cost).toMatchObject({ source: 'table', asOf: PRICES_TAKEN })
  })

  it('uses the provider’s own price over the table, its cache figures defaulting to input', () => {
    const priced = modelPrice('openai', 'gpt-4o', { 'gpt-4o': { input: 1, output: 2 } })
    expect(priced?.source).toBe('settings')
    const cost = costOf(
      { inputTokens: 2_000_000, cachedTokens: 1_000_000, outputTokens: 1_000_000 },
      priced!
    )
    expect(cost).toEqual({ usd: 4, source: 'settings' })
    expect(modelPrice('openai-compatible', 'llama3', { llama3: { input: 0, output: 0 } })).toEqual({
      price: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
      source: 'settings'
    })
    expect(modelPrice('openai-compatible', 'llama3')).toBeNull()
  })

  it('never goes negative on usage whose parts add up to more than the prompt', () => {
    const priced = modelPrice('openai', 'gpt-4o')!
    expect(
      costOf({ inputTokens: 10, cachedTokens: 50, outputTokens: 0 }, priced).usd
    ).toBeGreaterThan(0)
  })

  it('prints dollars', () => {
    expect(formatUsd(0.012345)).toBe('$0.0123')
    expect(formatUsd(12.345)).toBe('$12.35')
  })
})

describe('prices from settings', () => {
  it('finds only the provider’s own entries, never an inherited property', () => {
    expect(modelPrice('openai-compatible', 'constructor', {})).toBeNull()
    expect(modelPrice('openai', 'toString', { 'gpt-4o': { input: 1, output: 1 } })).toBeNull()
  })
})

describe('a provider’s prices in the settings', () => {
  const settings = (provider: Record<string, unknown>): Settings =>
    settingsSchema.parse({ providers: [{ id: 'p', kind: 'anthropic', ...provider }] })
  const ref = { providerId: 'p', model: 'claude-sonnet-4-5' }

  it('are checked strictly: a misspelt or negative price stops the settings', () => {
    const misspelt = providerSettingsSchema.safeParse({
      id: 'p',
      kind: 'openai',
      prices: { 'gpt-4o': { input: 1, output: 2, cached: 0.5 } }
    })
    expect(misspelt.success).toBe(false)
    const negative = providerSettingsSchema.safeParse({
      id: 'p',
      kind: 'openai',
      prices: { 'gpt-4o': { input: -1, output: 2 } }
    })
    expect(negative.success).toBe(false)
  })

  it('price the session’s model, the one-hour cache writing at twice the input price', () => {
    expect(priceForModel(ref, settings({}))?.price.cacheWrite).toBe(3.75)
    expect(priceForModel(ref, settings({ prompt_cache: '1h' }))?.price.cacheWrite).toBe(6)
    const own = settings({ prices: { 'claude-sonnet-4-5': { input: 1, output: 1 } } })
    expect(priceForModel(ref, own)).toMatchObject({ source: 'settings', price: { input: 1 } })
    expect(priceForModel({ providerId: 'gone', model: 'claude-sonnet-4-5' }, own)).toBeNull()
    expect(priceForModel(null, own)).toBeNull()
  })
})
