import { describe, expect, it } from 'vitest'
import { dottedTitle } from './approval-dot'

describe('dottedTitle', () => {
  it('adds the dot once while an approval waits and takes it away after', () => {
    const dotted = dottedTitle('project — Mecatl', true)
    expect(dotted).toBe('● project — Mecatl')
    expect(dottedTitle(dotted, true)).toBe(dotted)
    expect(dottedTitle(dotted, false)).toBe('project — Mecatl')
    expect(dottedTitle('project — Mecatl', false)).toBe('project — Mecatl')
  })
})
