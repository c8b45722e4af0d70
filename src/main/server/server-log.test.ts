import { describe, expect, it } from 'vitest'
import { rateLimitedLog } from './server-log'

describe('rate-limited server log', () => {
  it('writes a window of lines, counts the rest, and says how many it held back', () => {
    const lines: string[] = []
    let clock = 0
    const { log, flush } = rateLimitedLog((line) => lines.push(line), {
      limit: 3,
      windowMs: 1000,
      now: () => clock
    })
    for (let i = 0; i < 10; i++) log(`bad frame ${i}`)
    expect(lines).toEqual([
      'browser mode: bad frame 0',
      'browser mode: bad frame 1',
      'browser mode: bad frame 2'
    ])
    clock = 1000
    log('bad frame 10')
    expect(lines.slice(3)).toEqual([
      'browser mode: 7 more problem(s) like these were not logged',
      'browser mode: bad frame 10'
    ])
    for (let i = 11; i < 15; i++) log(`bad frame ${i}`)
    flush()
    expect(lines.slice(5)).toEqual([
      'browser mode: bad frame 11',
      'browser mode: bad frame 12',
      'browser mode: 2 more problem(s) like these were not logged'
    ])
  })

  it('never throws, even when the sink does', () => {
    const { log, flush } = rateLimitedLog(() => {
      throw new Error('stderr is closed')
    })
    expect(() => {
      log('one')
      flush()
    }).not.toThrow()
  })
})
