// Tests of src/shared/terminal-screen live here: src/shared imports nothing but zod, vitest included.
import { describe, expect, it } from 'vitest'
import { terminalScreen } from './terminal-screen'

// npm (11) draws its spinner as: cursor to column 1, erase the line, the next frame.
const npmFrame = (glyph: string): string => `\x1b[1G\x1b[2K${glyph}`
const frames = ['⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏', '⠋']

describe('terminalScreen', () => {
  it('collapses an npm spinner that is cleared at the end to nothing', () => {
    const raw = `\x1b[?25l${frames.map(npmFrame).join('')}\x1b[1G\x1b[2K\x1b[?25h\nadded 3 packages in 1s\n`
    expect(terminalScreen(raw)).toBe('\nadded 3 packages in 1s\n')
  })

  it('keeps the last frame of a spinner that is left on screen', () => {
    const raw = `${frames.map(npmFrame).join('')}\r\n`
    expect(terminalScreen(raw)).toBe('⠋\n')
  })

  it('collapses a spinner drawn with backspaces', () => {
    expect(terminalScreen('working |\b/\b-\b\\\b done\n')).toBe('working  done\n')
  })

  it('shows what a carriage-return progress bar finally showed', () => {
    const bar = (n: number): string => `[${'#'.repeat(n)}${' '.repeat(10 - n)}] ${n * 10}%`
    const raw = `${[1, 4, 7, 10].map((n) => `\r${bar(n)}`).join('')}\r\nDone\r\n`
    expect(terminalScreen(raw)).toBe('[##########] 100%\nDone\n')
  })

  it('keeps the tail of a longer line that a shorter redraw did not cover', () => {
    // A terminal overwrites in place: "done" over "Downloading" leaves "doneloading".
    expect(terminalScreen('Downloading\rdone')).toBe('doneloading')
    expect(terminalScreen('Downloading\r\x1b[Kdone')).toBe('done')
  })

  it('turns CRLF into LF and removes colours', () => {
    const raw = '\x1b[1;32mPASS\x1b[0m src/a.test.ts\r\n\x1b[31mFAIL\x1b[39m b\r\n'
    expect(terminalScreen(raw)).toBe('PASS src/a.test.ts\nFAIL b\n')
  })

  it('redraws lines above the cursor (multi-line progress)', () => {
    const raw = 'a: 0%\nb: 0%\n\x1b[2A\x1b[2Ka: 100%\n\x1b[2Kb: 100%\n'
    expect(terminalScreen(raw)).toBe('a: 100%\nb: 100%\n')
  })

  it('removes titles and hyperlinks, ended by BEL or ST', () => {
    expect(terminalScreen('\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe('link')
  })

  it('leaves plain text as it is, tabs and wide characters included', () => {
    const plain = 'a\tb\n😀 ok\n  indented  \n\nend'
    expect(terminalScreen(plain)).toBe(plain)
  })

  it('drops bells and stray escapes, and survives a cut escape sequence', () => {
    expect(terminalScreen('a\x07b\x1b')).toBe('ab')
    expect(terminalScreen('a\x1b[3')).toBe('a[3')
  })

  it('clamps huge cursor moves instead of looping or allocating', () => {
    expect(terminalScreen('x\x1b[999999999Ay\x1b[99999999999Dz')).toBe('zy')
    expect(terminalScreen('\x1b[999999999Cz').length).toBeLessThanOrEqual(10_001)
  })
})
