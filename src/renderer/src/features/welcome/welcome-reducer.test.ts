import { describe, expect, it } from 'vitest'
import { initialWelcomeState, welcomeReducer } from './welcome-reducer'

describe('welcomeReducer', () => {
  it('sorts recent folders newest first', () => {
    const state = welcomeReducer(initialWelcomeState, {
      type: 'recent-loaded',
      folders: [
        { path: '/a', openedAt: 1 },
        { path: '/b', openedAt: 3 },
        { path: '/c', openedAt: 2 }
      ]
    })
    expect(state.recent.map((f) => f.path)).toEqual(['/b', '/c', '/a'])
    expect(state.recentStatus).toBe('ready')
  })

  it('keeps the typed path when opening fails and clears the error on edit', () => {
    let state = welcomeReducer(initialWelcomeState, { type: 'open-started', path: '/x/file.txt' })
    expect(state.opening).toBe(true)
    state = welcomeReducer(state, { type: 'open-failed', error: 'not a directory' })
    expect(state).toMatchObject({ opening: false, error: 'not a directory', path: '/x/file.txt' })
    state = welcomeReducer(state, { type: 'path-changed', path: '/x' })
    expect(state.error).toBeNull()
  })

  it('remembers a folder that is open elsewhere', () => {
    let state = welcomeReducer(initialWelcomeState, { type: 'open-started', path: '/p' })
    state = welcomeReducer(state, { type: 'opened-elsewhere', path: '/p' })
    expect(state).toMatchObject({ opening: false, openElsewhere: '/p' })
  })
})
