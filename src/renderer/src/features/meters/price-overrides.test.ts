import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../../../shared/settings'
import { modelPrice } from '../../../../shared/model-prices'
import { parsePriceDraft, priceOverrides, pricedProviders, withPrice } from './price-overrides'

const settings = {
  providers: [
    { id: 'fake', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', models: ['m'] },
    {
      id: 'anthropic',
      kind: 'anthropic',
      models: [],
      prices: { 'claude-x': { input: 1, output: 2 }, broken: { input: -1, output: 2 } }
    }
  ],
  max_tokens: 1000
}

const draft = {
  providerId: 'fake',
  model: 'm',
  input: '1',
  output: '2',
  cacheRead: '',
  cacheWrite: ''
}

describe('price overrides', () => {
  it('lists the valid prices of every provider', () => {
    expect(pricedProviders(settings).map((p) => p.id)).toEqual(['fake', 'anthropic'])
    expect(priceOverrides(settings)).toEqual([
      {
        providerId: 'anthropic',
        kind: 'anthropic',
        model: 'claude-x',
        entry: { input: 1, output: 2 }
      }
    ])
  })

  it('writes a price where a turn finds it, keeping everything else', () => {
    const next = withPrice(settings, 'fake', 'm', { input: 1, output: 2, cache_read: 0.1 })
    expect(next.max_tokens).toBe(1000)
    const parsed = settingsSchema.parse({ ...next, providers: [(next.providers as unknown[])[0]] })
    expect(modelPrice('openai-compatible', 'm', parsed.providers[0]?.prices)?.price).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0.1,
      cacheWrite: 1
    })
    // Removing the last price removes the key: the file keeps no empty `prices: {}`.
    const removed = withPrice(next, 'fake', 'm', null)
    expect((removed.providers as Record<string, unknown>[])[0]).not.toHaveProperty('prices')
    // The input is not changed.
    expect(settings.providers[0]).not.toHaveProperty('prices')
  })

  it('keeps a model named __proto__ as a key, not a prototype', () => {
    const next = withPrice(settings, 'fake', '__proto__', { input: 1, output: 1 })
    const written = JSON.parse(JSON.stringify(next)) as { providers: { prices?: object }[] }
    expect(Object.keys(written.providers[0]?.prices ?? {})).toEqual(['__proto__'])
  })

  it('refuses a provider that is not there instead of writing nowhere', () => {
    expect(() => withPrice(settings, 'gone', 'm', { input: 1, output: 1 })).toThrow(
      /no provider "gone"/
    )
    expect(() => withPrice({}, 'fake', 'm', null)).toThrow(/add one under Providers/)
  })
})

describe('parsePriceDraft', () => {
  it('takes dollars per million tokens, cache figures optional', () => {
    expect(parsePriceDraft(draft)).toEqual({ ok: true, entry: { input: 1, output: 2 } })
    expect(parsePriceDraft({ ...draft, cacheRead: '0.1', cacheWrite: ' 1.25 ' })).toEqual({
      ok: true,
      entry: { input: 1, output: 2, cache_read: 0.1, cache_write: 1.25 }
    })
  })

  it('says what is wrong with each field', () => {
    const result = parsePriceDraft({
      ...draft,
      model: ' ',
      input: '-1',
      output: '1e3',
      cacheRead: 'NaN'
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(Object.keys(result.errors).sort()).toEqual(['cacheRead', 'input', 'model', 'output'])
    expect(result.errors.input).toMatch(/US dollars per million tokens/)
  })
})
