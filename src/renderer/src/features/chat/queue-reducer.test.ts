import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../../../shared/domain'
import {
  endOutcome,
  initialQueueState,
  nextToSend,
  queueHold,
  queueReducer,
  turnOutcome,
  type QueueAction,
  type QueueState
} from './queue-reducer'
import type { TranscriptEntry } from './transcript-reducer'

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0 }

function turnEnd(stopReason: string, error: string | null = null): TranscriptEntry {
  const item: TranscriptItem = {
    kind: 'turn-end',
    turnId: 't1',
    usage,
    stopReason,
    error,
    at: 1
  }
  return { key: `end-${stopReason}`, item }
}

function user(text: string): TranscriptEntry {
  return { key: `user-${text}`, item: { kind: 'user', id: 'u', text, at: 1 } as TranscriptItem }
}

function run(actions: QueueAction[], state: QueueState = initialQueueState): QueueState {
  return actions.reduce(queueReducer, state)
}

const queued = (sessionId: string, id: string, text: string): QueueAction => ({
  type: 'enqueue',
  sessionId,
  id,
  text
})

describe('queueReducer', () => {
  it('keeps a queue per session, in the order typed', () => {
    const state = run([
      queued('a', '1', 'first'),
      queued('b', '2', 'other'),
      queued('a', '3', 'two')
    ])
    expect(state.sessions['a']?.items.map((i) => i.text)).toEqual(['first', 'two'])
    expect(state.sessions['b']?.items.map((i) => i.text)).toEqual(['other'])
  })

  it('refuses blank text and a duplicate id, so nothing is queued twice or empty', () => {
    const state = run([queued('a', '1', '   '), queued('a', '2', 'x'), queued('a', '2', 'y')])
    expect(state.sessions['a']?.items.map((i) => i.text)).toEqual(['x'])
  })

  it('removes a message, and forgets a session whose queue is empty', () => {
    const state = run([queued('a', '1', 'x'), { type: 'remove', sessionId: 'a', id: '1' }])
    expect(state.sessions['a']).toBeUndefined()
  })

  it('edits a message in place and clears its error', () => {
    const state = run([
      queued('a', '1', 'x'),
      queued('a', '2', 'y'),
      { type: 'take', sessionId: 'a', id: '1' },
      { type: 'failed', sessionId: 'a', id: '1', error: 'offline' },
      { type: 'edit-start', sessionId: 'a', id: '1' },
      { type: 'edit-save', sessionId: 'a', id: '1', text: 'x, better' }
    ])
    expect(state.sessions['a']?.items).toEqual([
      { id: '1', text: 'x, better', error: null },
      { id: '2', text: 'y', error: null }
    ])
    expect(state.sessions['a']?.editing).toBeNull()
  })

  it('keeps the old text when an edit is saved blank', () => {
    const state = run([
      queued('a', '1', 'x'),
      { type: 'edit-start', sessionId: 'a', id: '1' },
      { type: 'edit-save', sessionId: 'a', id: '1', text: '  ' }
    ])
    expect(state.sessions['a']?.items[0]?.text).toBe('x')
    expect(state.sessions['a']?.editing).toBe('1')
  })

  it('never removes or edits a message while it is on its way', () => {
    const state = run([
      queued('a', '1', 'x'),
      { type: 'take', sessionId: 'a', id: '1' },
      { type: 'remove', sessionId: 'a', id: '1' },
      { type: 'edit-start', sessionId: 'a', id: '1' },
      { type: 'edit-save', sessionId: 'a', id: '1', text: 'changed' }
    ])
    expect(state.sessions['a']?.items).toEqual([{ id: '1', text: 'x', error: null }])
    expect(state.sessions['a']?.inFlight).toBe('1')
    expect(state.sessions['a']?.editing).toBeNull()
  })

  it('drops a message once sent, and keeps it with the error when sending failed', () => {
    const sent = run([
      queued('a', '1', 'x'),
      { type: 'take', sessionId: 'a', id: '1' },
      { type: 'sent', sessionId: 'a', id: '1' }
    ])
    expect(sent.sessions['a']).toBeUndefined()
    const failed = run([
      queued('a', '1', 'x'),
      { type: 'send-now', sessionId: 'a', id: '1' },
      { type: 'take', sessionId: 'a', id: '1' },
      { type: 'failed', sessionId: 'a', id: '1', error: 'the server is gone' }
    ])
    expect(failed.sessions['a']).toEqual({
      items: [{ id: '1', text: 'x', error: 'the server is gone' }],
      inFlight: null,
      sendNow: null,
      editing: null
    })
  })

  it('ignores actions about messages it does not hold', () => {
    const state = run([queued('a', '1', 'x')])
    const after = run(
      [
        { type: 'remove', sessionId: 'a', id: 'nope' },
        { type: 'take', sessionId: 'b', id: '1' },
        { type: 'send-now', sessionId: 'a', id: 'nope' },
        { type: 'sent', sessionId: 'a', id: '1' }
      ],
      state
    )
    expect(after).toEqual(state)
  })

  it('lets a removed message take its Send now with it', () => {
    const state = run([
      queued('a', '1', 'x'),
      queued('a', '2', 'y'),
      { type: 'send-now', sessionId: 'a', id: '2' },
      { type: 'remove', sessionId: 'a', id: '2' }
    ])
    expect(state.sessions['a']?.sendNow).toBeNull()
  })
})

describe('turnOutcome', () => {
  it('reads the last turn end: finished, stopped, failed or interrupted', () => {
    expect(turnOutcome([user('hi'), turnEnd('end_turn')])).toBe('ok')
    expect(turnOutcome([turnEnd('end_turn'), user('hi'), turnEnd('cancelled')])).toBe('stopped')
    expect(turnOutcome([turnEnd('end_turn', 'provider said 500')])).toBe('failed')
    expect(turnOutcome([turnEnd('interrupted')])).toBe('stopped')
    expect(turnOutcome([user('hi')])).toBe('ok')
  })

  it("counts the providers' own stop reasons (stop, stop_sequence, max_tokens) as finished", () => {
    for (const reason of ['stop', 'stop_sequence', 'max_tokens', 'tool_use', 'max_steps']) {
      expect(endOutcome(reason, null)).toBe('ok')
    }
    expect(endOutcome('stopped_by_user', null)).toBe('stopped')
    expect(endOutcome('end_turn', 'the provider answered 500')).toBe('failed')
  })
})

describe('nextToSend', () => {
  const two = run([queued('a', '1', 'x'), queued('a', '2', 'y')]).sessions['a']

  it('sends nothing while the session is busy (a turn, an approval or a question waits)', () => {
    expect(nextToSend(two, false, 'ok')).toBeNull()
  })

  it('sends the first message once a turn has finished, one at a time', () => {
    expect(nextToSend(two, true, 'ok')?.id).toBe('1')
    const taken = queueReducer({ sessions: { a: two! } }, { type: 'take', sessionId: 'a', id: '1' })
    expect(nextToSend(taken.sessions['a'], true, 'ok')).toBeNull()
  })

  it('holds the queue after a stopped or failed turn, a failed send, or while editing', () => {
    expect(nextToSend(two, true, 'stopped')).toBeNull()
    expect(nextToSend(two, true, 'failed')).toBeNull()
    const failed = run(
      [
        { type: 'take', sessionId: 'a', id: '1' },
        { type: 'failed', sessionId: 'a', id: '1', error: 'offline' }
      ],
      { sessions: { a: two! } }
    ).sessions['a']
    expect(nextToSend(failed, true, 'ok')).toBeNull()
    expect(queueHold(failed, 'ok')).toBe('error')
    const editing = run([{ type: 'edit-start', sessionId: 'a', id: '2' }], {
      sessions: { a: two! }
    }).sessions['a']
    expect(nextToSend(editing, true, 'ok')).toBeNull()
    expect(queueHold(editing, 'ok')).toBe('editing')
    expect(queueHold(two, 'stopped')).toBe('stopped')
    expect(queueHold(two, 'ok')).toBeNull()
  })

  it('sends the Send now message first, even after the stop it asked for', () => {
    const now = run([{ type: 'send-now', sessionId: 'a', id: '2' }], { sessions: { a: two! } })
      .sessions['a']
    expect(nextToSend(now, false, 'ok')).toBeNull()
    expect(nextToSend(now, true, 'stopped')?.id).toBe('2')
    expect(queueHold(now, 'stopped')).toBeNull()
  })

  it('has nothing to send for a session without a queue', () => {
    expect(nextToSend(undefined, true, 'ok')).toBeNull()
  })
})
