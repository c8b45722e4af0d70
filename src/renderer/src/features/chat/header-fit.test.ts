import { describe, expect, it } from 'vitest'
import { nextFit } from './header-fit'

describe('nextFit', () => {
  it('gives way one step at a time while the header overflows, up to the last', () => {
    const needed: number[] = []
    expect(nextFit(0, { scrollWidth: 900, clientWidth: 600 }, needed)).toBe(1)
    expect(nextFit(1, { scrollWidth: 700, clientWidth: 600 }, needed)).toBe(2)
    expect(nextFit(2, { scrollWidth: 640, clientWidth: 600 }, needed)).toBe(3)
    expect(nextFit(3, { scrollWidth: 620, clientWidth: 600 }, needed)).toBe(3)
    expect(needed).toEqual([900, 700, 640])
  })

  it('steps back only once the width it needed before is there, with some to spare', () => {
    const needed = [900, 700]
    expect(nextFit(2, { scrollWidth: 600, clientWidth: 600 }, needed)).toBe(2)
    expect(nextFit(2, { scrollWidth: 705, clientWidth: 705 }, needed)).toBe(2)
    expect(nextFit(2, { scrollWidth: 720, clientWidth: 720 }, needed)).toBe(1)
    expect(nextFit(1, { scrollWidth: 800, clientWidth: 800 }, needed)).toBe(1)
    expect(nextFit(1, { scrollWidth: 1000, clientWidth: 1000 }, needed)).toBe(0)
  })

  it('holds where it fits with no record of more room needed', () => {
    expect(nextFit(0, { scrollWidth: 600, clientWidth: 600 }, [])).toBe(0)
    expect(nextFit(1, { scrollWidth: 600, clientWidth: 600 }, [])).toBe(1)
  })
})
