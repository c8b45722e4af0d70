import { describe, expect, it } from 'vitest'
import type { TranscriptItem, Usage } from './domain'
import { cacheShare, totalsOf } from './meters'

const end = (turnId: string, usage: Usage, usd?: number | null): TranscriptItem => ({
  kind: 'turn-end',
  turnId,
  usage,
  ...(usd === undefined ? {} : { cost: usd === null ? null : { usd, source: 'table' as const } }),
  stopReason: 'end_turn',
  error: null,
  at: 1
})

describe('totalsOf', () => {
  it('sums tokens over turn ends and cost over the priced ones', () => {
    const totals = totalsOf([
      { kind: 'user', id: 'u', text: 'x', at: 0 },
      end('t1', { inputTokens: 100, outputTokens: 10, cachedTokens: 80 }, 0.5),
      end('t2', { inputTokens: 50, outputTokens: 5, cachedTokens: 0 }, null),
      // Recorded before turns had costs.
      end('t3', { inputTokens: 1, outputTokens: 1, cachedTokens: 0 })
    ])
    expect(totals).toEqual({
      inputTokens: 151,
      outputTokens: 16,
      cachedTokens: 80,
      usd: 0.5,
      pricedTurns: 1,
      unpricedTurns: 2
    })
  })

  it('skips turn ends with no request and clamps figures that are not counts', () => {
    const totals = totalsOf([
      end('fork', { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }, null),
      end('bad', { inputTokens: Number.NaN, outputTokens: -5, cachedTokens: Infinity }, 0.1)
    ])
    expect(totals).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      usd: 0.1,
      pricedTurns: 1,
      unpricedTurns: 0
    })
  })
})

describe('cacheShare', () => {
  it('is the cached part of the input, never over 1, and null with no input', () => {
    expect(cacheShare({ inputTokens: 2500, cachedTokens: 2200 })).toBeCloseTo(0.88)
    expect(cacheShare({ inputTokens: 10, cachedTokens: 50 })).toBe(1)
    expect(cacheShare({ inputTokens: 0, cachedTokens: 0 })).toBeNull()
  })
})
