import { describe, expect, it } from 'vitest'
import { writePieces } from './write-pieces'

describe('writePieces', () => {
  it('leaves a small write whole', () => {
    expect(writePieces('hello', 8)).toEqual(['hello'])
  })

  it('cuts a large write into pieces that join back to it', () => {
    const data = 'x'.repeat(1000)
    const pieces = writePieces(data, 64)
    expect(pieces.every((piece) => piece.length <= 64)).toBe(true)
    expect(pieces.join('')).toBe(data)
  })

  it('never cuts between the halves of a surrogate pair', () => {
    const data = 'ab😀cd😀😀ef'.repeat(50)
    for (const size of [2, 3, 4, 5, 7]) {
      const pieces = writePieces(data, size)
      expect(pieces.join('')).toBe(data)
      for (const piece of pieces) {
        expect(piece.length).toBeGreaterThan(0)
        const last = piece.charCodeAt(piece.length - 1)
        expect(last >= 0xd800 && last <= 0xdbff, `size ${size}`).toBe(false)
      }
    }
  })
})
