import { describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../../../shared/domain'
import {
  initialSessionsState,
  selectedSession,
  sessionsReducer,
  visibleSessions
} from './sessions-reducer'

function session(id: string, updatedAt: number, workspace = '/p'): SessionSummary {
  return {
    id,
    workspace,
    title: `Session ${id}`,
    createdAt: 0,
    updatedAt,
    messageCount: 0,
    model: null,
    running: false
  }
}

const opened = sessionsReducer(
  sessionsReducer(initialSessionsState, { type: 'open-started', folder: '/p' }),
  {
    type: 'opened',
    workspace: '/p',
    sessions: [session('a', 1), session('b', 5)],
    selectedId: null
  }
)

describe('sessionsReducer', () => {
  it('lists sessions by last activity and selects the latest', () => {
    expect(opened.sessions.map((s) => s.id)).toEqual(['b', 'a'])
    expect(opened.selectedId).toBe('b')
  })

  it('honours a requested selection that exists', () => {
    const state = sessionsReducer(opened, {
      type: 'opened',
      workspace: '/p',
      sessions: opened.sessions,
      selectedId: 'a'
    })
    expect(selectedSession(state)?.id).toBe('a')
  })

  it('moves an updated session to the top and ignores other projects', () => {
    let state = sessionsReducer(opened, { type: 'session-updated', session: session('a', 9) })
    expect(state.sessions.map((s) => s.id)).toEqual(['a', 'b'])
    state = sessionsReducer(state, { type: 'session-updated', session: session('z', 99, '/other') })
    expect(state.sessions).toHaveLength(2)
  })

  it('adds a session seen for the first time', () => {
    const state = sessionsReducer(opened, { type: 'session-updated', session: session('c', 7) })
    expect(state.sessions.map((s) => s.id)).toEqual(['c', 'b', 'a'])
    expect(state.selectedId).toBe('b')
  })

  it('selects a created session', () => {
    let state = sessionsReducer(opened, { type: 'create-started' })
    state = sessionsReducer(state, { type: 'created', session: session('n', 10) })
    expect(state).toMatchObject({ creating: false, selectedId: 'n' })
  })

  it('keeps the recorded size a summary update does not carry', () => {
    const sized = sessionsReducer(opened, {
      type: 'session-updated',
      session: { ...session('a', 9), sizeBytes: 2048 }
    })
    const state = sessionsReducer(sized, { type: 'session-updated', session: session('a', 10) })
    expect(state.sessions.find((s) => s.id === 'a')?.sizeBytes).toBe(2048)
  })

  it('drops a deleted session and selects the next when it was selected', () => {
    const state = sessionsReducer(opened, { type: 'deleted', sessionId: 'b' })
    expect(state.sessions.map((s) => s.id)).toEqual(['a'])
    expect(state.selectedId).toBe('a')
    const other = sessionsReducer(opened, { type: 'deleted', sessionId: 'a' })
    expect(other.selectedId).toBe('b')
  })

  it('shows only the hits of the current search, with their snippets', () => {
    let state = sessionsReducer(opened, { type: 'search', query: 'alp' })
    expect(visibleSessions(state)).toEqual([])
    state = sessionsReducer(state, { type: 'search', query: 'alpha' })
    // The answer to the older query arrives late: it is not shown.
    state = sessionsReducer(state, {
      type: 'search-results',
      query: 'alp',
      hits: [{ id: 'b', snippet: 'alp' }]
    })
    expect(state.hits).toBeNull()
    state = sessionsReducer(state, {
      type: 'search-results',
      query: 'alpha',
      hits: [{ id: 'a', snippet: '…says alpha' }]
    })
    expect(visibleSessions(state).map((v) => [v.session.id, v.snippet])).toEqual([
      ['a', '…says alpha']
    ])
    state = sessionsReducer(state, { type: 'search', query: '' })
    expect(visibleSessions(state).map((v) => v.snippet)).toEqual([null, null])
  })

  it('keeps the selection across a refresh when it still exists', () => {
    const selected = sessionsReducer(opened, { type: 'select', sessionId: 'a' })
    const state = sessionsReducer(selected, {
      type: 'listed',
      sessions: [session('a', 1), session('b', 5)]
    })
    expect(state.selectedId).toBe('a')
    const gone = sessionsReducer(selected, { type: 'listed', sessions: [session('b', 5)] })
    expect(gone.selectedId).toBe('b')
  })
})
