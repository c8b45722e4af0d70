import { describe, expect, it } from 'vitest'
import { initialReplayState, replayedItems, replayReducer } from './replay-reducer'

const items = ['user', 'assistant', 'tool', 'turn-end']

describe('replayReducer', () => {
  it('steps through the items one at a time, never past either end', () => {
    let state = replayReducer(initialReplayState, { type: 'start', sessionId: 's', total: 4 })
    expect(replayedItems(state, 's', items)).toEqual(['user'])
    state = replayReducer(replayReducer(state, { type: 'next' }), { type: 'next' })
    expect(replayedItems(state, 's', items)).toEqual(['user', 'assistant', 'tool'])
    state = replayReducer(replayReducer(state, { type: 'next' }), { type: 'next' })
    expect(state.step).toBe(4)
    state = replayReducer(state, { type: 'first' })
    state = replayReducer(state, { type: 'prev' })
    expect(state.step).toBe(1)
    state = replayReducer(state, { type: 'last' })
    expect(replayedItems(state, 's', items)).toEqual(items)
  })

  it('shows every item of other sessions and after it stops', () => {
    const state = replayReducer(initialReplayState, { type: 'start', sessionId: 's', total: 4 })
    expect(replayedItems(state, 'other', items)).toEqual(items)
    expect(replayedItems(replayReducer(state, { type: 'stop' }), 's', items)).toEqual(items)
  })

  it('does not start on an empty session', () => {
    const state = replayReducer(initialReplayState, { type: 'start', sessionId: 's', total: 0 })
    expect(state.sessionId).toBeNull()
  })
})
