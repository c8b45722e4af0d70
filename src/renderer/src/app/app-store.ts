import { call } from '../bridge/client'
import { errorMessage } from '../lib/errors'
import { createReducerStore } from '../lib/reducer-store'
import { appReducer, initialAppState } from './app-reducer'

export const useApp = createReducerStore(appReducer, initialAppState)

export async function loadAppInfo(): Promise<void> {
  try {
    const info = await call('app.info', {})
    useApp.getState().dispatch({ type: 'info-loaded', info })
  } catch (error) {
    useApp.getState().dispatch({ type: 'info-failed', error: errorMessage(error) })
  }
}

export function openSettings(): void {
  useApp.getState().dispatch({ type: 'open-settings' })
}

export function closeSettings(): void {
  useApp.getState().dispatch({ type: 'close-settings' })
}

let settingsPreloader: (() => void) | null = null

/**
 * How the Settings screen, a chunk of its own, loads ahead of its first showing; the shell
 * registers it (nothing below the screen may import it).
 */
export function setSettingsPreloader(preload: () => void): void {
  settingsPreloader = preload
}

/** The person is about to open Settings (a pointer on its button, focus on it): start loading. */
export function settingsWanted(): void {
  settingsPreloader?.()
}
