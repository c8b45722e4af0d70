import { describe, expect, it } from 'vitest'
import { restoreQueue, RELOADED_WHILE_SENDING } from './queue-persist'
import { initialQueueState, queueReducer, type QueueState } from './queue-reducer'

function saved(state: QueueState): string {
  return JSON.stringify(state)
}

describe('restoreQueue', () => {
  it('gives back what was queued before the window reloaded, by session', () => {
    const state = [
      { type: 'enqueue', sessionId: 'a', id: '1', text: 'first' },
      { type: 'enqueue', sessionId: 'b', id: '2', text: 'other' }
    ].reduce(queueReducer as never, initialQueueState) as QueueState
    expect(restoreQueue(saved(state))).toEqual(state)
  })

  it('marks a message that was on its way, since it may have been sent: never resent blindly', () => {
    const state: QueueState = {
      sessions: {
        a: {
          items: [
            { id: '1', text: 'maybe sent', error: null },
            { id: '2', text: 'next', error: null }
          ],
          inFlight: '1',
          sendNow: '2',
          editing: '2'
        }
      }
    }
    expect(restoreQueue(saved(state))).toEqual({
      sessions: {
        a: {
          items: [
            { id: '1', text: 'maybe sent', error: RELOADED_WHILE_SENDING },
            { id: '2', text: 'next', error: null }
          ],
          inFlight: null,
          sendNow: null,
          editing: null
        }
      }
    })
  })

  it('starts empty from nothing, from broken JSON or from a shape it does not know', () => {
    expect(restoreQueue(null)).toEqual(initialQueueState)
    expect(restoreQueue('{"sessions": {"a": ')).toEqual(initialQueueState)
    expect(restoreQueue('{"sessions": {"a": {"items": [{"id": 1}]}}}')).toEqual(initialQueueState)
    expect(restoreQueue('[]')).toEqual(initialQueueState)
  })

  it('drops sessions whose queue is empty and blank messages', () => {
    const raw = JSON.stringify({
      sessions: {
        a: { items: [], inFlight: null, sendNow: null, editing: null },
        b: {
          items: [
            { id: '1', text: '  ', error: null },
            { id: '2', text: 'kept', error: null }
          ],
          inFlight: null,
          sendNow: null,
          editing: null
        }
      }
    })
    expect(restoreQueue(raw)).toEqual({
      sessions: {
        b: {
          items: [{ id: '2', text: 'kept', error: null }],
          inFlight: null,
          sendNow: null,
          editing: null
        }
      }
    })
  })
})
