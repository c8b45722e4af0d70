import { describe, expect, it } from 'vitest'
import type { AnyEvent } from '../../../../shared/contract'
import type { ToolCallView, TranscriptItem } from '../../../../shared/domain'
import { chatReducer, initialChatState, isBusy, type ChatState } from './transcript-reducer'

const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 0 }

function ready(items: TranscriptItem[] = [], running = false): ChatState {
  const selected = chatReducer(initialChatState, { type: 'select', sessionId: 's1' })
  return chatReducer(selected, { type: 'loaded', sessionId: 's1', items, running })
}

function apply(state: ChatState, ...events: AnyEvent[]): ChatState {
  return events.reduce((s, event) => chatReducer(s, { type: 'event', event, at: 100 }), state)
}

function tool(state: ToolCallView['state'], extra: Partial<ToolCallView> = {}): TranscriptItem {
  return {
    kind: 'tool',
    turnId: 't1',
    call: {
      id: 'c1',
      name: 'Read',
      input: { path: 'a.txt' },
      state,
      readOnly: true,
      capabilities: null,
      startedAt: null,
      endedAt: null,
      output: null,
      refusedBy: null,
      ...extra
    }
  }
}

const delta = (messageId: string, text: string): AnyEvent => ({
  event: 'message.delta',
  payload: { sessionId: 's1', turnId: 't1', messageId, delta: text }
})

describe('chatReducer', () => {
  it('streams deltas into a new assistant message', () => {
    const state = apply(ready(), delta('m1', 'Hel'), delta('m1', 'lo'))
    expect(state.items).toEqual([
      { kind: 'assistant', id: 'm1', turnId: 't1', text: 'Hello', at: 100, streaming: true }
    ])
  })

  it('upserts tool calls by call id, keeping their place', () => {
    const user: TranscriptItem = { kind: 'user', id: 'u1', text: 'read a', at: 1 }
    let state = apply(ready([user]), {
      event: 'transcript.item',
      payload: { sessionId: 's1', item: tool('awaiting-approval') }
    })
    state = apply(state, delta('m2', 'Reading'), {
      event: 'transcript.item',
      payload: { sessionId: 's1', item: tool('done', { startedAt: 1, endedAt: 2 }) }
    })
    expect(state.items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant'])
    const card = state.items[1]
    expect(card?.kind === 'tool' && card.call.state).toBe('done')
  })

  it('keeps calls the provider gave the same id apart: a card goes by its turn and place', () => {
    const first = tool('done', { id: 't1:0:0', wireId: 'call_0', input: { path: 'a.txt' } })
    const later = (state: ToolCallView['state']): TranscriptItem => {
      const item = tool(state, { id: 't2:0:0', wireId: 'call_0', input: { path: 'b.txt' } })
      return item.kind === 'tool' ? { ...item, turnId: 't2' } : item
    }
    const state = apply(
      ready([first]),
      { event: 'transcript.item', payload: { sessionId: 's1', item: later('running') } },
      { event: 'transcript.item', payload: { sessionId: 's1', item: later('done') } }
    )
    expect(state.items).toEqual([first, later('done')])
  })

  it('lets the final assistant item replace the streamed text', () => {
    const final: TranscriptItem = {
      kind: 'assistant',
      id: 'm1',
      turnId: 't1',
      text: 'Hello!',
      at: 5,
      streaming: false
    }
    const state = apply(ready(), delta('m1', 'Hel'), {
      event: 'transcript.item',
      payload: { sessionId: 's1', item: final }
    })
    expect(state.items).toEqual([final])
  })

  it('tracks a turn from start to completion and adds its usage', () => {
    let state = apply(ready(), {
      event: 'turn.started',
      payload: { sessionId: 's1', turnId: 't1' }
    })
    expect(state).toMatchObject({ running: true, turnId: 't1' })
    expect(isBusy(state)).toBe(true)
    state = apply(state, delta('m1', 'Hi'), {
      event: 'turn.completed',
      payload: { sessionId: 's1', turnId: 't1', usage, stopReason: 'end_turn' }
    })
    expect(state.running).toBe(false)
    expect(state.items[0]).toMatchObject({ kind: 'assistant', streaming: false })
    expect(state.items[1]).toMatchObject({ kind: 'turn-end', usage, error: null })
  })

  it('does not duplicate a turn-end the server already sent', () => {
    const end: TranscriptItem = {
      kind: 'turn-end',
      turnId: 't1',
      usage,
      stopReason: 'end_turn',
      error: null,
      at: 3
    }
    const state = apply(
      ready(),
      { event: 'transcript.item', payload: { sessionId: 's1', item: end } },
      {
        event: 'turn.completed',
        payload: { sessionId: 's1', turnId: 't1', usage, stopReason: 'end_turn' }
      }
    )
    expect(state.items).toEqual([end])
  })

  it('records a failed turn with its error', () => {
    const state = apply(ready([], true), {
      event: 'turn.failed',
      payload: { sessionId: 's1', turnId: 't1', error: 'The provider said 401' }
    })
    expect(state.running).toBe(false)
    expect(state.items[0]).toMatchObject({ kind: 'turn-end', error: 'The provider said 401' })
  })

  it('ignores other sessions and events that race the snapshot', () => {
    const other: AnyEvent = {
      event: 'message.delta',
      payload: { sessionId: 's2', turnId: 't', messageId: 'x', delta: 'no' }
    }
    expect(apply(ready(), other).items).toEqual([])
    const loading = chatReducer(initialChatState, { type: 'select', sessionId: 's1' })
    expect(apply(loading, delta('m1', 'early')).items).toEqual([])
  })

  it('resumes a running session from its snapshot', () => {
    const streaming: TranscriptItem = {
      kind: 'assistant',
      id: 'm1',
      turnId: 't9',
      text: 'Wor',
      at: 1,
      streaming: true
    }
    const state = ready([streaming], true)
    expect(state).toMatchObject({ running: true, turnId: 't9' })
  })

  it('handles a send whose turn already finished before the answer came', () => {
    let state = chatReducer(ready(), { type: 'send-started' })
    state = apply(
      state,
      { event: 'turn.started', payload: { sessionId: 's1', turnId: 't1' } },
      {
        event: 'turn.completed',
        payload: { sessionId: 's1', turnId: 't1', usage, stopReason: 'end_turn' }
      }
    )
    state = chatReducer(state, { type: 'send-done', sessionId: 's1', turnId: 't1' })
    expect(state).toMatchObject({ running: false, sending: false })
  })

  it('keeps a failed send visible', () => {
    let state = chatReducer(ready(), { type: 'send-started' })
    state = chatReducer(state, { type: 'send-failed', error: 'no model configured' })
    expect(state).toMatchObject({ sending: false, sendError: 'no model configured' })
  })
})

describe('chatReducer reload', () => {
  it('keeps the transcript on screen while a reload is loading', () => {
    const user: TranscriptItem = { kind: 'user', id: 'u1', text: 'hi', at: 1 }
    const state = chatReducer(ready([user]), { type: 'select', sessionId: 's1', reload: true })
    expect(state).toMatchObject({ status: 'loading', items: [user] })
  })
})
