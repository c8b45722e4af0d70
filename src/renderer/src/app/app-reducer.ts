import type { CallOutput } from '../../../shared/contract'

export type AppInfo = CallOutput<'app.info'>

export interface AppState {
  info: AppInfo | null
  infoError: string | null
  /** The settings panel, over whatever screen is below it. */
  settingsOpen: boolean
  /** First run: settings opened because no provider is configured yet. */
  onboarding: boolean
  /** Settings were read once, so we know whether onboarding is needed. */
  settingsChecked: boolean
}

export type AppAction =
  | { type: 'info-loaded'; info: AppInfo }
  | { type: 'info-failed'; error: string }
  | { type: 'settings-checked'; providerCount: number }
  | { type: 'open-settings' }
  | { type: 'close-settings' }

export const initialAppState: AppState = {
  info: null,
  infoError: null,
  settingsOpen: false,
  onboarding: false,
  settingsChecked: false
}

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'info-loaded':
      return { ...state, info: action.info, infoError: null }
    case 'info-failed':
      return { ...state, infoError: action.error }
    case 'settings-checked': {
      if (state.settingsChecked) return state
      const needed = action.providerCount === 0
      return { ...state, settingsChecked: true, onboarding: needed, settingsOpen: needed }
    }
    case 'open-settings':
      return { ...state, settingsOpen: true }
    case 'close-settings':
      return { ...state, settingsOpen: false, onboarding: false }
  }
}
