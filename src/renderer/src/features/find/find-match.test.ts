import { describe, expect, it } from 'vitest'
import { findInPieces, findInText, MAX_MATCHES } from './find-match'

describe('findInText', () => {
  it('finds every occurrence, ignoring case, without overlaps', () => {
    expect(findInText('Error, error, ERROR', 'error')).toEqual([0, 7, 14])
    expect(findInText('aaaa', 'aa')).toEqual([0, 2])
  })

  it('finds nothing for a blank query', () => {
    expect(findInText('some text', '')).toEqual([])
    expect(findInText('some text', '   ')).toEqual([])
  })

  it('treats the query as text, not as a pattern', () => {
    expect(findInText('a.b a*b (x)', '.')).toEqual([1])
    expect(findInText('a.b a*b (x)', '(x)')).toEqual([8])
  })

  it('keeps offsets true where lowercasing would change a length', () => {
    // "İ".toLowerCase() is two code units; the offsets must still point into the shown text.
    const text = 'İstanbul and istanbul'
    expect(findInText(text, 'stan')).toEqual([1, 14])
    expect(findInText('😀 Hit hit', 'hit')).toEqual([3, 7])
  })

  it('stops at a bound, however many matches there are', () => {
    expect(findInText('a'.repeat(MAX_MATCHES * 3), 'a')).toHaveLength(MAX_MATCHES)
  })
})

describe('findInPieces', () => {
  it('places a hit that spans pieces (bold inside a sentence) at both ends', () => {
    const pieces = ['The ', 'quick', ' brown fox']
    expect(findInPieces(pieces, 'quick brown')).toEqual([
      { start: { piece: 1, offset: 0 }, end: { piece: 2, offset: 6 } }
    ])
  })

  it('places hits inside single pieces', () => {
    expect(findInPieces(['no', 'hit here', 'hit'], 'hit')).toEqual([
      { start: { piece: 1, offset: 0 }, end: { piece: 1, offset: 3 } },
      { start: { piece: 2, offset: 0 }, end: { piece: 2, offset: 3 } }
    ])
  })

  it('skips empty pieces when placing an end', () => {
    expect(findInPieces(['ab', '', 'cd'], 'bc')).toEqual([
      { start: { piece: 0, offset: 1 }, end: { piece: 2, offset: 1 } }
    ])
  })
})
