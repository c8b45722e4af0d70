// The message size limit lives in src/shared (zod only, no test runner there); it is tested here,
// where the router that enforces it runs.
import { describe, expect, it } from 'vitest'
import { calls } from './index'
import { MAX_MESSAGE_BYTES, messageSizeProblem, utf8Length } from './message-size'

const encoder = new TextEncoder()

describe('message size', () => {
  it('counts UTF-8 bytes as they go on the wire, lone surrogates included', () => {
    for (const text of [
      '',
      'abc',
      'é',
      '漢字',
      '😀',
      'a😀b',
      '\ud800',
      'x\udc00y',
      '\ud83d\ud83d'
    ]) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length)
    }
  })

  it('lets through exactly the limit and stops one byte past it, in any script', () => {
    expect(messageSizeProblem('a'.repeat(MAX_MESSAGE_BYTES))).toBeNull()
    expect(messageSizeProblem('a'.repeat(MAX_MESSAGE_BYTES + 1))).toMatch(/at most 1 MB/)
    // Three bytes a character: fewer characters than the limit, more bytes.
    const cjk = '漢'.repeat(Math.floor(MAX_MESSAGE_BYTES / 3) + 1)
    expect(cjk.length).toBeLessThan(MAX_MESSAGE_BYTES)
    expect(messageSizeProblem(cjk)).not.toBeNull()
  })

  it('says how big the message is, that it stays, and what to do instead', () => {
    const problem = messageSizeProblem('x'.repeat(Math.round(3.2 * 1024 * 1024)))
    expect(problem).toBe(
      'This message is 3.2 MB; Mecatl sends at most 1 MB at a time. ' +
        'Save it to a file in the project and ask the model to read it.'
    )
    // Just over: never a size that reads as within the limit.
    expect(messageSizeProblem('x'.repeat(MAX_MESSAGE_BYTES + 1))).toMatch(
      /^This message is 1\.1 MB/
    )
  })

  it('is enforced by the session.send contract, with the same sentence', () => {
    const input = calls['session.send'].input
    expect(input.safeParse({ sessionId: 's', text: 'a'.repeat(MAX_MESSAGE_BYTES) }).success).toBe(
      true
    )
    const parsed = input.safeParse({ sessionId: 's', text: 'é'.repeat(MAX_MESSAGE_BYTES) })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['text'],
        message: expect.stringMatching(/^This message is 2\.0 MB; Mecatl sends at most 1 MB/)
      })
    ])
  })
})
