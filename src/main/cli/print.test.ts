import { describe, expect, it } from 'vitest'
import { streamWriter, terminalSafe } from './print'

// Every character a terminal would act on: C0 but tab and line feed, DEL, C1, bidi marks.
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('terminalSafe', () => {
  it('shows escape sequences instead of passing them to the terminal', () => {
    const text =
      'copy \u001b]52;c;ZXZpbA==\u0007 title \u001b]0;pwned\u001b\\ clear \u001b[2J\u001b[H bell \u0007 back\bspace'
    const shown = terminalSafe(text)
    expect(shown).not.toMatch(RAW)
    expect(shown).toBe(
      'copy \\x1b]52;c;ZXZpbA==\\x07 title \\x1b]0;pwned\\x1b\\ clear \\x1b[2J\\x1b[H bell \\x07 back\\x08space'
    )
  })

  it('shows C1 controls, DEL and bidirectional overrides as \\u escapes', () => {
    expect(terminalSafe('a\u009b31mb\u007fc\u202ed\u2066e')).toBe(
      'a\\u009b31mb\\u007fc\\u202ed\\u2066e'
    )
  })

  it('keeps line feeds and tabs, turns CRLF into a line feed, and shows a lone CR', () => {
    expect(terminalSafe('one\ttwo\r\nthree\rfour\n')).toBe('one\ttwo\nthree\\x0dfour\n')
  })

  it('leaves JSON valid and its values exactly as they were', () => {
    const value = { text: 'x\u001b[31m\u009b2J\u202e\u007f\r\n' }
    const printed = terminalSafe(JSON.stringify(value, null, 2))
    expect(printed).not.toMatch(RAW)
    expect(JSON.parse(printed)).toEqual(value)
  })
})

describe('streamWriter', () => {
  it('joins a CRLF split between two pieces, and shows a CR left at the end', () => {
    let out = ''
    const stream = streamWriter((text) => (out += terminalSafe(text)))
    stream.write('line one\r')
    stream.write('\nline two\u001b')
    stream.write('[2J\r')
    stream.end()
    expect(out).toBe('line one\nline two\\x1b[2J\\x0d')
  })
})
