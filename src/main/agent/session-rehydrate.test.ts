import { describe, expect, it } from 'vitest'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import type { StoredEvent } from '../store/session-store'
import { transcriptKey } from './session'
import { historyFromTranscript, rehydrate } from './session-rehydrate'

const call = (state: ToolCallView['state']): ToolCallView => ({
  id: 'c1',
  name: 'Write',
  input: { path: 'x.txt', content: 'x' },
  state,
  readOnly: false,
  capabilities: null,
  startedAt: 5,
  endedAt: null,
  output: null,
  refusedBy: null
})

function events(...entries: (TranscriptItem | { turnStarted: string })[]): StoredEvent[] {
  return entries.map((entry, index) =>
    'turnStarted' in entry
      ? {
          seq: index + 1,
          at: index,
          kind: 'turn.started',
          key: null,
          payload: { turnId: entry.turnStarted }
        }
      : {
          seq: index + 1,
          at: index,
          kind: 'transcript.item',
          key: transcriptKey(entry),
          payload: { item: entry }
        }
  )
}

describe('rehydrate', () => {
  it('closes a turn the app died in, and a call waiting for approval reads as interrupted', () => {
    const { transcript } = rehydrate(
      events(
        { turnStarted: 't1' },
        { kind: 'user', id: 'u1', text: 'write x', at: 1 },
        { kind: 'assistant', id: 'a1', turnId: 't1', text: '', at: 2, streaming: true },
        { kind: 'assistant', id: 'a1', turnId: 't1', text: 'Writing', at: 2, streaming: true },
        { kind: 'tool', turnId: 't1', call: call('awaiting-approval') }
      )
    )
    expect(transcript.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'turn-end'])
    expect(transcript[1]).toMatchObject({ text: 'Writing', streaming: false })
    expect(transcript[2]).toMatchObject({ call: { state: 'failed', output: { isError: true } } })
    expect(transcript[3]).toMatchObject({ turnId: 't1', stopReason: 'interrupted' })
  })

  it('adds the text streamed after a reply was saved, and only to that reply', () => {
    const saved = events(
      { turnStarted: 't1' },
      { kind: 'user', id: 'u1', text: 'hello', at: 1 },
      { kind: 'assistant', id: 'a1', turnId: 't1', text: 'Hel', at: 2, streaming: true }
    )
    const delta = (key: string | null, text: unknown, seq: number): StoredEvent => ({
      seq,
      at: seq,
      kind: 'message.delta',
      key,
      payload: { turnId: 't1', messageId: 'a1', delta: text }
    })
    const { transcript } = rehydrate([
      delta('assistant:a1', 'too early', 0),
      ...saved,
      delta('assistant:a1', 'lo, ', 4),
      delta('user:u1', 'not a reply', 5),
      delta('assistant:a1', 7, 6),
      delta('assistant:a1', 'world', 7)
    ])
    expect(transcript.map((i) => (i.kind === 'turn-end' ? i.stopReason : i.kind))).toEqual([
      'user',
      'assistant',
      'interrupted'
    ])
    expect(transcript[0]).toMatchObject({ text: 'hello' })
    expect(transcript[1]).toMatchObject({ text: 'Hello, world', streaming: false })
  })

  it('closes a turn killed before the model answered, right after its message', () => {
    const { transcript } = rehydrate(
      events(
        { turnStarted: 't1' },
        { kind: 'user', id: 'u1', text: 'hello', at: 1 },
        { turnStarted: 't2' },
        { kind: 'user', id: 'u2', text: 'again', at: 3 },
        { kind: 'assistant', id: 'a2', turnId: 't2', text: 'Hi', at: 4, streaming: false },
        {
          kind: 'turn-end',
          turnId: 't2',
          usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
          stopReason: 'end_turn',
          error: null,
          at: 5
        }
      )
    )
    expect(transcript.map((i) => (i.kind === 'turn-end' ? i.stopReason : i.kind))).toEqual([
      'user',
      'interrupted',
      'user',
      'assistant',
      'end_turn'
    ])
  })

  it('rebuilds the history: a reply with its calls, then their results', () => {
    const done = {
      ...call('done'),
      output: { content: [{ type: 'text' as const, text: 'ok' }], isError: false, external: false }
    }
    const history = historyFromTranscript([
      { kind: 'user', id: 'u1', text: 'write x', at: 1 },
      { kind: 'assistant', id: 'a1', turnId: 't1', text: 'Writing', at: 2, streaming: false },
      { kind: 'tool', turnId: 't1', call: done },
      { kind: 'assistant', id: 'a2', turnId: 't1', text: 'Done', at: 3, streaming: false }
    ])
    expect(history).toEqual([
      { role: 'user', text: 'write x' },
      {
        role: 'assistant',
        text: 'Writing',
        toolCalls: [{ id: 'c1', name: 'Write', input: '{"path":"x.txt","content":"x"}' }]
      },
      {
        role: 'tool',
        results: [
          { callId: 'c1', name: 'Write', content: [{ type: 'text', text: 'ok' }], isError: false }
        ]
      },
      { role: 'assistant', text: 'Done', toolCalls: [] }
    ])
  })
})
