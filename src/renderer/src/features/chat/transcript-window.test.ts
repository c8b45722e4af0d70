import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../../../shared/domain'
import {
  FIRST_SCREEN_ITEMS,
  estimateRowSize,
  keepFromBottom,
  withPinned
} from './transcript-window'

describe('withPinned', () => {
  it('adds the pinned rows to the rows on screen, in order and once each', () => {
    expect(withPinned([10, 11, 12], [3, 11, 40])).toEqual([3, 10, 11, 12, 40])
  })

  it('leaves the rows on screen alone when nothing is pinned', () => {
    expect(withPinned([0, 1, 2], [])).toEqual([0, 1, 2])
  })

  it('ignores pinned rows that no longer exist', () => {
    expect(withPinned([0, 1], [-1, 5, 1], 3)).toEqual([0, 1])
  })
})

describe('keepFromBottom', () => {
  it('keeps the same distance from the bottom when older items come in above', () => {
    // 500 px from the bottom of a 2,000 px transcript; 30,000 px arrive above.
    expect(keepFromBottom(32_000, 500, 600)).toBe(32_000 - 500 - 600)
  })

  it('never scrolls above the top', () => {
    expect(keepFromBottom(400, 900, 600)).toBe(0)
  })
})

describe('estimateRowSize', () => {
  const user: TranscriptItem = { kind: 'user', id: 'u', text: 'hi', at: 0 }
  it('gives every kind of item a positive height, longer text a taller one', () => {
    const long: TranscriptItem = { ...user, text: 'word '.repeat(400) }
    expect(estimateRowSize(user)).toBeGreaterThan(0)
    expect(estimateRowSize(long)).toBeGreaterThan(estimateRowSize(user))
  })
})

it('loads a first screen of items, not the whole session', () => {
  expect(FIRST_SCREEN_ITEMS).toBeGreaterThan(20)
  expect(FIRST_SCREEN_ITEMS).toBeLessThan(500)
})
