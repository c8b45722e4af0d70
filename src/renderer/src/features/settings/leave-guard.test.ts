import { afterEach, describe, expect, it } from 'vitest'
import { useApp } from '../../app/app-store'
import { leaveSettingsThen, setLeaveGuard } from './leave-guard'

function openSettingsScreen(onboarding = false): void {
  useApp.setState((s) => ({ ...s, state: { ...s.state, settingsOpen: true, onboarding } }))
}

afterEach(() => {
  setLeaveGuard(null)
  useApp.setState((s) => ({ ...s, state: { ...s.state, settingsOpen: false, onboarding: false } }))
})

describe('leaving Settings another way than Back', () => {
  it('asks the guard, and neither closes Settings nor acts until the person chose to leave', () => {
    openSettingsScreen()
    const asked: { leave?: () => void } = {}
    setLeaveGuard((leave) => {
      asked.leave = leave
    })
    const done: string[] = []
    leaveSettingsThen(() => done.push('find'))
    expect(done).toEqual([])
    expect(useApp.getState().state.settingsOpen).toBe(true)
    // Stay is never calling `leave`; Save or Discard and leave call it.
    asked.leave?.()
    expect(done).toEqual(['find'])
    expect(useApp.getState().state.settingsOpen).toBe(false)
  })

  it('acts at once outside Settings, and during the first run without closing it', () => {
    const done: string[] = []
    setLeaveGuard(() => done.push('asked'))
    leaveSettingsThen(() => done.push('outside'))
    openSettingsScreen(true)
    leaveSettingsThen(() => done.push('first run'))
    expect(done).toEqual(['outside', 'first run'])
    expect(useApp.getState().state.settingsOpen).toBe(true)
  })
})
