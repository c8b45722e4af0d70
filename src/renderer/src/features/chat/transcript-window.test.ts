import { describe, expect, it } from 'vitest'
import { TRANSCRIPT_WINDOW, tailWindow, widenWindow } from './transcript-window'

const items = Array.from({ length: 400 }, (_, i) => i)

describe('tailWindow', () => {
  it('renders the newest items of a long transcript and counts the rest', () => {
    const { visible, hidden } = tailWindow(items, TRANSCRIPT_WINDOW)
    expect(visible).toHaveLength(TRANSCRIPT_WINDOW)
    expect(visible.at(-1)).toBe(399)
    expect(hidden).toBe(400 - TRANSCRIPT_WINDOW)
  })

  it('renders a short transcript whole', () => {
    expect(tailWindow([1, 2, 3], TRANSCRIPT_WINDOW)).toEqual({ visible: [1, 2, 3], hidden: 0 })
  })

  it('widens a window at a time until everything is shown', () => {
    let shown = TRANSCRIPT_WINDOW
    shown = widenWindow(shown, items.length)
    expect(shown).toBe(2 * TRANSCRIPT_WINDOW)
    shown = widenWindow(shown, items.length)
    expect(shown).toBe(400)
    expect(tailWindow(items, shown).hidden).toBe(0)
  })
})
