import { call } from '../../bridge/client'
import { createReducerStore } from '../../lib/reducer-store'
import {
  initialSettingsHealth,
  settingsHealthReducer,
  type SettingsHealthState
} from './settings-health-reducer'

export const useSettingsHealth = createReducerStore(settingsHealthReducer, initialSettingsHealth)

/** Reads which settings files apply here and have problems (the main process re-reads them). */
export async function loadSettingsHealth(workspace: string | null): Promise<void> {
  const { dispatch } = useSettingsHealth.getState()
  try {
    const health = await call('settings.status', workspace ? { workspace } : {})
    dispatch({ type: 'loaded', workspace, health })
  } catch {
    dispatch({ type: 'failed' })
  }
}

/** The state for tests and for components outside React. */
export function settingsHealthState(): SettingsHealthState {
  return useSettingsHealth.getState().state
}
