import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { describeSessionCost, sessionCost } from './session-cost'

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0 }

function end(
  turnId: string,
  cost: Extract<TranscriptItem, { kind: 'turn-end' }>['cost']
): TranscriptItem {
  return { kind: 'turn-end', turnId, usage, stopReason: 'end_turn', error: null, at: 0, cost }
}

describe('a session’s total cost', () => {
  it('adds every priced turn and counts the turns it could not price', () => {
    const transcript: TranscriptItem[] = [
      { kind: 'user', id: 'u1', text: 'hi', at: 0 },
      end('t1', { usd: 0.5, source: 'table', asOf: '2025-11-24' }),
      end('t2', { usd: 0.25, source: 'settings' }),
      end('t3', null),
      end('t4', undefined)
    ]
    const total = sessionCost(transcript)
    expect(total).toEqual({ usd: 0.75, pricedTurns: 2, unpricedTurns: 2 })
    expect(describeSessionCost(total)).toMatch(
      /^\$0\.7500 over 2 turns .*; 2 turns not counted: .*set `prices`/
    )
  })

  it('says the cost is unknown, and what to do, when no turn had a price', () => {
    const text = describeSessionCost(sessionCost([end('t1', null)]))
    expect(text).toMatch(/^unknown: .*set `prices`/)
    expect(describeSessionCost(sessionCost([]))).toMatch(/^\$0\.0000 over 0 turns/)
  })
})
