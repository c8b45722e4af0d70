import { describe, expect, it } from 'vitest'
import { incompleteUtf8Tail, orphanUtf8Head, plainText, stripAnsi } from './terminal-text'

describe('plainText', () => {
  it('removes colours, cursor moves and titles', () => {
    const raw = '\x1b]0;my title\x07\x1b[1;32mPASS\x1b[0m src/a.test.ts \x1b[3Cdone'
    expect(plainText(raw)).toBe('PASS src/a.test.ts    done')
  })

  it('shows an npm spinner the way the terminal did: gone once cleared', () => {
    const frame = (glyph: string): string => `\x1b[1G\x1b[2K${glyph}`
    const raw = `${['⠙', '⠹', '⠸'].map(frame).join('')}\x1b[1G\x1b[2Kup to date in 1s\r\n`
    expect(plainText(raw)).toBe('up to date in 1s\n')
  })

  it('turns CRLF into LF', () => {
    expect(plainText('one\r\ntwo\r\n')).toBe('one\ntwo\n')
  })

  it('keeps what a redrawn progress line finally showed', () => {
    expect(plainText('Downloading  10%\rDownloading  55%\rDownloading 100%\r\nDone\r\n')).toBe(
      'Downloading 100%\nDone\n'
    )
  })

  it('drops stray control characters but keeps tabs', () => {
    expect(plainText('a\tb\x07c\x08')).toBe('a\tbc')
  })

  it('strips hyperlinks ended by ST', () => {
    expect(stripAnsi('\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe('link')
  })
})

describe('UTF-8 boundaries', () => {
  const euro = Buffer.from('€') // e2 82 ac
  const emoji = Buffer.from('😀') // f0 9f 98 80

  it('finds a character cut at the end', () => {
    expect(incompleteUtf8Tail(Buffer.from('ab'))).toBe(0)
    expect(incompleteUtf8Tail(Buffer.concat([Buffer.from('a'), euro]))).toBe(0)
    expect(incompleteUtf8Tail(Buffer.concat([Buffer.from('a'), euro.subarray(0, 1)]))).toBe(1)
    expect(incompleteUtf8Tail(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]))).toBe(2)
    expect(incompleteUtf8Tail(emoji.subarray(0, 3))).toBe(3)
    expect(incompleteUtf8Tail(emoji)).toBe(0)
  })

  it('finds the rest of a character cut at the start', () => {
    expect(orphanUtf8Head(euro.subarray(1))).toBe(2)
    expect(orphanUtf8Head(emoji.subarray(1))).toBe(3)
    expect(orphanUtf8Head(Buffer.from('abc'))).toBe(0)
  })
})
