import { describe, expect, it } from 'vitest'
import { appReducer, initialAppState } from './app-reducer'

describe('appReducer', () => {
  it('opens onboarding when no provider is configured', () => {
    const state = appReducer(initialAppState, { type: 'settings-checked', providerCount: 0 })
    expect(state).toMatchObject({ settingsChecked: true, onboarding: true, settingsOpen: true })
  })

  it('goes straight to the app when a provider exists', () => {
    const state = appReducer(initialAppState, { type: 'settings-checked', providerCount: 2 })
    expect(state).toMatchObject({ onboarding: false, settingsOpen: false })
  })

  it('decides onboarding only once', () => {
    let state = appReducer(initialAppState, { type: 'settings-checked', providerCount: 1 })
    state = appReducer(state, { type: 'settings-checked', providerCount: 0 })
    expect(state.settingsOpen).toBe(false)
  })

  it('closing settings ends onboarding', () => {
    let state = appReducer(initialAppState, { type: 'settings-checked', providerCount: 0 })
    state = appReducer(state, { type: 'close-settings' })
    expect(state).toMatchObject({ onboarding: false, settingsOpen: false })
  })
})
