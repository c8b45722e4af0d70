import { describe, expect, it } from 'vitest'
import { groupedDigits } from './grouped-digits'

describe('groupedDigits', () => {
  it('writes whole numbers as en-US does', () => {
    for (const n of [
      0,
      7,
      999,
      1000,
      12_345,
      999_999,
      1_000_000,
      40_000,
      -1234,
      -12,
      2 ** 53 - 1
    ]) {
      expect(groupedDigits(n)).toBe(n.toLocaleString('en-US'))
    }
  })

  it('leaves a fraction, an unsafe integer or NaN to Intl', () => {
    for (const n of [1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(groupedDigits(n)).toBe(n.toLocaleString('en-US'))
    }
  })
})
