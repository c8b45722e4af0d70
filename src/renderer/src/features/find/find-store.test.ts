import { describe, expect, it } from 'vitest'
import { findReducer, initialFindState, type FindState } from './find-store'

const run = (...actions: Parameters<typeof findReducer>[1][]): FindState =>
  actions.reduce(findReducer, initialFindState)

describe('findReducer', () => {
  it('opens with the caret in the box, and again when asked while open', () => {
    const open = run({ type: 'open', focus: true })
    expect(open).toMatchObject({ open: true, focusSignal: 1 })
    expect(findReducer(open, { type: 'open', focus: true }).focusSignal).toBe(2)
  })

  it('starts a new search for each query, and keeps the last one when reopened', () => {
    const typed = run({ type: 'open', focus: true }, { type: 'query', query: 'apple' })
    expect(typed.searchSignal).toBeGreaterThan(run({ type: 'open', focus: true }).searchSignal)
    const closed = findReducer(typed, { type: 'close' })
    expect(closed.open).toBe(false)
    expect(findReducer(closed, { type: 'open', focus: true }).query).toBe('apple')
  })

  it('lands on a search hit with the words of the search, without taking the caret', () => {
    const waiting = run({ type: 'land', sessionId: 's1', query: 'zebra' })
    expect(waiting.landing).toEqual({ sessionId: 's1', query: 'zebra' })
    expect(waiting.open).toBe(false)
    const landed = run(
      { type: 'land', sessionId: 's1', query: 'zebra' },
      { type: 'open', query: 'zebra', focus: false },
      { type: 'landed' }
    )
    expect(landed).toMatchObject({ open: true, query: 'zebra', focusSignal: 0, landing: null })
  })

  it('forgets a landing still waiting when the bar is closed', () => {
    expect(run({ type: 'land', sessionId: 's1', query: 'x' }, { type: 'close' }).landing).toBeNull()
  })
})
