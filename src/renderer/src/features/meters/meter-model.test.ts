import { describe, expect, it } from 'vitest'
import { emptyTotals } from '../../../../shared/meters'
import { cacheLabel, contextGauge, costLabel, shortTokens, totalsLine } from './meter-model'

describe('shortTokens', () => {
  it('shortens counts and never prints a bad figure', () => {
    expect(shortTokens(950)).toBe('950')
    expect(shortTokens(2500)).toBe('2.5k')
    expect(shortTokens(128_000)).toBe('128k')
    expect(shortTokens(1_047_576)).toBe('1M')
    expect(shortTokens(1_500_000)).toBe('1.5M')
    expect(shortTokens(999_950)).toBe('1M')
    expect(shortTokens(Number.NaN)).toBe('0')
    expect(shortTokens(-3)).toBe('0')
  })
})

describe('contextGauge', () => {
  it('fills by the latest request and marks the compaction threshold', () => {
    const gauge = contextGauge({
      contextWindow: 200_000,
      compactAt: 150_000,
      contextTokens: 50_000
    })
    expect(gauge.fill).toBe(0.25)
    expect(gauge.mark).toBe(0.75)
    expect(gauge.compacting).toBe(false)
    expect(gauge.label).toBe('50k / 200k')
    expect(gauge.description).toContain('25%')
    expect(gauge.description).toContain('past 150k')
  })

  it('says compaction is next at the mark, and stays inside the bar past the window', () => {
    const over = contextGauge({ contextWindow: 4096, compactAt: 9000, contextTokens: 5000 })
    expect(over.fill).toBe(1)
    expect(over.mark).toBe(1)
    const at = contextGauge({ contextWindow: 100, compactAt: 75, contextTokens: 75 })
    expect(at.compacting).toBe(true)
  })

  it('does not claim a figure it does not have', () => {
    const gauge = contextGauge({ contextWindow: 128_000, compactAt: 96_000, contextTokens: null })
    expect(gauge.fill).toBe(0)
    expect(gauge.label).toBe('– / 128k')
    expect(gauge.description).toContain('not known until the model next answers')
  })
})

describe('session figures', () => {
  const priced = {
    ...emptyTotals(),
    inputTokens: 2500,
    outputTokens: 50,
    cachedTokens: 2200,
    usd: 0.0012,
    pricedTurns: 1
  }

  it('shows cost only when a turn had a price, and marks turns left out', () => {
    expect(costLabel(priced)).toBe('$0.0012')
    expect(costLabel({ ...priced, usd: 0, pricedTurns: 0, unpricedTurns: 2 })).toBeNull()
    expect(totalsLine(priced)).toBe('$0.0012 · 2.6k tokens')
    expect(totalsLine({ ...priced, unpricedTurns: 1 })).toBe('$0.0012+ · 2.6k tokens')
    expect(totalsLine({ ...priced, usd: 0, pricedTurns: 0, unpricedTurns: 1 })).toBe('2.6k tokens')
    expect(totalsLine(emptyTotals())).toBeNull()
  })

  it('gives the cached share of the input', () => {
    expect(cacheLabel(priced)).toBe('88% cached')
    expect(cacheLabel(emptyTotals())).toBeNull()
  })
})
