import { describe, expect, it } from 'vitest'
import type { AnyEvent } from '../../../../shared/contract'
import type { ToolCallView, TranscriptItem } from '../../../../shared/domain'
import {
  chatReducer,
  initialChatState,
  isBusy,
  snapshotEntries,
  type ChatState,
  type TranscriptEntry
} from './transcript-reducer'

const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 0 }

function ready(entries: TranscriptEntry[] = [], running = false): ChatState {
  const selected = chatReducer(initialChatState, { type: 'select', sessionId: 's1' })
  return chatReducer(selected, { type: 'loaded', sessionId: 's1', entries, running })
}

function apply(state: ChatState, ...events: AnyEvent[]): ChatState {
  return events.reduce((s, event) => chatReducer(s, { type: 'event', event }), state)
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

function reply(id: string, text: string, streaming: boolean): TranscriptItem {
  return { kind: 'assistant', id, turnId: 't1', text, at: 1, streaming }
}

const end: TranscriptItem = {
  kind: 'turn-end',
  turnId: 't1',
  usage,
  stopReason: 'end_turn',
  error: null,
  at: 3
}

/** The core's announcement of an item, under the key the core gave it. */
const announce = (key: string, item: TranscriptItem): AnyEvent => ({
  event: 'transcript.item',
  payload: { sessionId: 's1', key, item }
})

const delta = (messageId: string, text: string, key = `assistant:${messageId}`): AnyEvent => ({
  event: 'message.delta',
  payload: { sessionId: 's1', turnId: 't1', messageId, key, delta: text }
})

const completed: AnyEvent = {
  event: 'turn.completed',
  payload: { sessionId: 's1', turnId: 't1', usage, stopReason: 'end_turn' }
}

const items = (state: ChatState): TranscriptItem[] => state.entries.map((e) => e.item)

const thought = (messageId: string, place: number, text: string): AnyEvent => ({
  event: 'thinking.delta',
  payload: {
    sessionId: 's1',
    turnId: 't1',
    messageId,
    key: `assistant:${messageId}`,
    place,
    delta: text
  }
})

describe('chatReducer', () => {
  it('gathers streamed thinking by block, and the finished state replaces it', () => {
    const streaming = apply(
      ready(),
      announce('assistant:m1', reply('m1', '', true)),
      thought('m1', 0, 'First '),
      thought('m1', 0, 'idea.'),
      thought('m1', 1, 'Second.'),
      // A place past the next one is a piece of nothing shown: dropped.
      thought('m1', 5, 'lost'),
      // A piece of a reply the window does not hold is dropped too.
      thought('m9', 0, 'stray')
    )
    const live = items(streaming)
    expect(live).toHaveLength(1)
    expect(live[0]?.kind === 'assistant' && live[0].thinking).toEqual([
      { type: 'thinking', thinking: 'First idea.', signature: '' },
      { type: 'thinking', thinking: 'Second.', signature: '' }
    ])
    const signed = { type: 'thinking' as const, thinking: 'First idea.', signature: 'sig' }
    const finished = apply(
      streaming,
      announce('assistant:m1', {
        kind: 'assistant',
        id: 'm1',
        turnId: 't1',
        text: '',
        at: 1,
        streaming: true,
        thinking: [signed]
      })
    )
    const after = items(finished)[0]
    expect(after?.kind === 'assistant' && after.thinking).toEqual([signed])
  })

  it('streams deltas into the reply the core announced, by its key', () => {
    const state = apply(
      ready(),
      announce('assistant:m1', reply('m1', '', true)),
      delta('m1', 'Hel'),
      delta('m1', 'lo')
    )
    expect(state.entries).toEqual([{ key: 'assistant:m1', item: reply('m1', 'Hello', true) }])
  })

  it('goes by the key the core sent, never one of its own making', () => {
    // Keys are the core's business: a key in another shape is still the item's identity.
    let state = apply(ready(), announce('k-7', reply('m1', '', true)), delta('m1', 'Hi', 'k-7'))
    expect(items(state)).toEqual([reply('m1', 'Hi', true)])
    state = apply(state, announce('k-7', reply('m1', 'Hi!', false)))
    expect(state.entries).toEqual([{ key: 'k-7', item: reply('m1', 'Hi!', false) }])
    // Same id, another key: another item.
    state = apply(state, announce('k-8', reply('m1', 'other', false)))
    expect(state.entries.map((e) => e.key)).toEqual(['k-7', 'k-8'])
  })

  it('never makes an item up from a delta whose reply it was not told of', () => {
    const state = apply(ready(), delta('m1', 'stray'))
    expect(state.entries).toEqual([])
  })

  it('upserts tool calls by their key, keeping their place', () => {
    const user: TranscriptItem = { kind: 'user', id: 'u1', text: 'read a', at: 1 }
    let state = apply(
      ready([{ key: 'user:u1', item: user }]),
      announce('tool:c1', tool('awaiting-approval'))
    )
    state = apply(
      state,
      announce('assistant:m2', reply('m2', '', true)),
      delta('m2', 'Reading'),
      announce('tool:c1', tool('done', { startedAt: 1, endedAt: 2 }))
    )
    expect(items(state).map((i) => i.kind)).toEqual(['user', 'tool', 'assistant'])
    const card = items(state)[1]
    expect(card?.kind === 'tool' && card.call.state).toBe('done')
  })

  it('keeps calls the provider gave the same id apart: the core keys them by turn and place', () => {
    const first = tool('done', { id: 't1:0:0', wireId: 'call_0', input: { path: 'a.txt' } })
    const later = (state: ToolCallView['state']): TranscriptItem => {
      const item = tool(state, { id: 't2:0:0', wireId: 'call_0', input: { path: 'b.txt' } })
      return item.kind === 'tool' ? { ...item, turnId: 't2' } : item
    }
    const state = apply(
      ready([{ key: 'tool:t1:0:0', item: first }]),
      announce('tool:t2:0:0', later('running')),
      announce('tool:t2:0:0', later('done'))
    )
    expect(items(state)).toEqual([first, later('done')])
  })

  it('lets the final assistant item replace the streamed text', () => {
    const final = reply('m1', 'Hello!', false)
    const state = apply(
      ready(),
      announce('assistant:m1', reply('m1', '', true)),
      delta('m1', 'Hel'),
      announce('assistant:m1', final)
    )
    expect(items(state)).toEqual([final])
  })

  it('tracks a turn from start to completion, showing the end the core recorded', () => {
    let state = apply(ready(), {
      event: 'turn.started',
      payload: { sessionId: 's1', turnId: 't1' }
    })
    expect(state).toMatchObject({ running: true, turnId: 't1' })
    expect(isBusy(state)).toBe(true)
    state = apply(
      state,
      announce('assistant:m1', reply('m1', '', true)),
      delta('m1', 'Hi'),
      announce('assistant:m1', reply('m1', 'Hi', false)),
      announce('turn-end:t1', end),
      completed
    )
    expect(state.running).toBe(false)
    expect(items(state)).toEqual([reply('m1', 'Hi', false), end])
  })

  it('never adds a turn-end of its own when a turn completes or fails', () => {
    let state = apply(ready([], true), completed)
    expect(state).toMatchObject({ running: false, entries: [] })
    state = apply(ready([], true), {
      event: 'turn.failed',
      payload: { sessionId: 's1', turnId: 't1', error: 'The provider said 401' }
    })
    expect(state).toMatchObject({ running: false, entries: [] })
  })

  it('ignores other sessions and events that race the snapshot', () => {
    const other: AnyEvent = {
      event: 'message.delta',
      payload: { sessionId: 's2', turnId: 't', messageId: 'x', key: 'assistant:x', delta: 'no' }
    }
    const streaming = { key: 'assistant:x', item: reply('x', '', true) }
    expect(apply(ready([streaming]), other).entries).toEqual([streaming])
    const loading = chatReducer(initialChatState, { type: 'select', sessionId: 's1' })
    expect(apply(loading, announce('assistant:m1', reply('m1', 'early', true))).entries).toEqual([])
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
    const state = ready([{ key: 'assistant:m1', item: streaming }], true)
    expect(state).toMatchObject({ running: true, turnId: 't9' })
  })

  it('handles a send whose turn already finished before the answer came', () => {
    let state = chatReducer(ready(), { type: 'send-started' })
    state = apply(
      state,
      { event: 'turn.started', payload: { sessionId: 's1', turnId: 't1' } },
      completed
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
    const user = { key: 'user:u1', item: { kind: 'user', id: 'u1', text: 'hi', at: 1 } } as const
    const state = chatReducer(ready([user]), { type: 'select', sessionId: 's1', reload: true })
    expect(state).toMatchObject({ status: 'loading', entries: [user] })
  })
})

describe('chatReducer first screen', () => {
  it('counts the older items still on their way, until the whole session is in', () => {
    const user = { key: 'user:u1', item: { kind: 'user', id: 'u1', text: 'hi', at: 1 } } as const
    const selected = chatReducer(initialChatState, { type: 'select', sessionId: 's1' })
    const first = chatReducer(selected, {
      type: 'loaded',
      sessionId: 's1',
      entries: [user],
      running: false,
      earlier: 40
    })
    expect(first).toMatchObject({ status: 'ready', earlier: 40, entries: [user] })
    const whole = chatReducer(first, {
      type: 'loaded',
      sessionId: 's1',
      entries: [user],
      running: false
    })
    expect(whole.earlier).toBe(0)
  })
})

describe('snapshotEntries', () => {
  const user: TranscriptItem = { kind: 'user', id: 'u1', text: 'hi', at: 1 }

  it('pairs each item of a snapshot with the key the core gave it', () => {
    expect(snapshotEntries([user, end], ['user:u1', 'turn-end:t1'])).toEqual([
      { key: 'user:u1', item: user },
      { key: 'turn-end:t1', item: end }
    ])
  })

  it('refuses a snapshot whose keys do not match its items one for one', () => {
    expect(() => snapshotEntries([user, end], ['user:u1'])).toThrow(
      'its snapshot has 2 items but 1 key, so the window cannot tell them apart; try again'
    )
    expect(() => snapshotEntries([user, end], ['same', 'same'])).toThrow(
      'its snapshot has two items of the key "same", so the window cannot tell them apart; try again'
    )
  })
})
