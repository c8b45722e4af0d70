import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { SUMMARY_HEADER } from './compaction'
import { historyFromTranscript } from './session-rehydrate'

const user = (id: string, text: string): TranscriptItem => ({ kind: 'user', id, text, at: 1 })
const reply = (id: string, turnId: string, text: string): TranscriptItem => ({
  kind: 'assistant',
  id,
  turnId,
  text,
  at: 2,
  streaming: false
})
const compaction = (id: string, turnId: string, summary: string): TranscriptItem => ({
  kind: 'compaction',
  id,
  turnId,
  summary,
  carried: '<carried-state>\nplan\n</carried-state>',
  summarised: 2,
  at: 3
})

describe('historyFromTranscript after compactions', () => {
  it('is the last summary, then the turn it was made in and everything after', () => {
    const history = historyFromTranscript([
      user('u1', 'first'),
      reply('a1', 't1', 'one'),
      user('u2', 'second'),
      compaction('c1', 't2', 'S1'),
      reply('a2', 't2', 'two'),
      user('u3', 'third'),
      compaction('c2', 't3', 'S2'),
      reply('a3', 't3', 'three')
    ])
    expect(history).toEqual([
      { role: 'user', text: `${SUMMARY_HEADER}\n\nS2\n\n<carried-state>\nplan\n</carried-state>` },
      { role: 'user', text: 'third' },
      { role: 'assistant', text: 'three', toolCalls: [] }
    ])
  })

  it('is the whole conversation when nothing was compacted', () => {
    expect(historyFromTranscript([user('u1', 'hi'), reply('a1', 't1', 'hello')])).toEqual([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'hello', toolCalls: [] }
    ])
  })
})
