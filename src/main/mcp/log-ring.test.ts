import { describe, expect, it } from 'vitest'
import { LogRing } from './log-ring'

describe('LogRing', () => {
  it('keeps whole lines across chunks and drops the oldest past its capacity', () => {
    const log = new LogRing(3)
    log.stderr('one\ntw')
    log.stderr('o\nthree\n')
    log.event('exited')
    log.stderr('four')
    log.flush()
    expect(log.list().map((l) => `${l.stream}:${l.text}`)).toEqual([
      'stderr:three',
      'event:exited',
      'stderr:four'
    ])
    expect(log.count).toBe(5)
    expect(log.tail(2)).toEqual(['three', 'four'])
  })
})
