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
