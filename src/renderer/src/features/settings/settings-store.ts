import { call } from '../../bridge/client'
import { errorIssues, errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { buildSettings, providerToSettings } from './settings-model'
import { initialSettingsState, providersToSave, settingsReducer } from './settings-reducer'

export const useSettings = createReducerStore(settingsReducer, initialSettingsState)

const dispatch = useSettings.getState().dispatch
const current = (): typeof initialSettingsState => useSettings.getState().state

/** Reads settings; returns how many providers are configured, or null when it could not. */
export async function loadSettings(): Promise<number | null> {
  dispatch({ type: 'load-started' })
  try {
    const result = await call('settings.get', {})
    dispatch({
      type: 'loaded',
      path: result.path,
      settings: result.settings,
      issues: result.issues
    })
    return current().providers.length
  } catch (error) {
    dispatch({ type: 'load-failed', error: errorMessage(error) })
    return null
  }
}

/**
 * Reads the file again after it was written outside the Save bar (Always allow): settings not
 * edited here take what is on disk, and the next Save keeps what was written.
 */
export async function reloadSavedSettings(): Promise<void> {
  if (current().status !== 'ready') return
  try {
    const result = await call('settings.get', {})
    dispatch({ type: 'file-changed', settings: result.settings, issues: result.issues })
  } catch {
    // The draft stays as it is; opening Settings reads the file again.
  }
}

export async function testProvider(): Promise<void> {
  dispatch({ type: 'test-started' })
  try {
    const result = await call('provider.test', {
      provider: providerToSettings(current().form.draft)
    })
    if (result.ok) dispatch({ type: 'test-ok', models: result.models })
    else dispatch({ type: 'test-failed', error: result.error, issues: [] })
  } catch (error) {
    dispatch({ type: 'test-failed', error: errorMessage(error), issues: errorIssues(error) })
  }
}

/** Stores the typed key with the OS keychain; settings keep only its name. */
export async function storeSecret(): Promise<void> {
  const { draft, secretValue } = current().form
  const id = draft.id.trim()
  if (!id) {
    dispatch({
      type: 'secret-failed',
      error: 'Give the provider an id first; the key is stored under it.'
    })
    return
  }
  if (!secretValue.trim()) return
  const name = `${id}.api_key`
  dispatch({ type: 'secret-started' })
  try {
    const { stored } = await call('secrets.store', { name, value: secretValue.trim() })
    if (stored) dispatch({ type: 'secret-stored', name })
    else dispatch({ type: 'secret-failed', error: 'The key could not be stored on this machine.' })
  } catch (error) {
    dispatch({ type: 'secret-failed', error: errorMessage(error) })
  }
}

/** Saves the whole settings object; resolves true when it was written. */
export async function saveSettings(): Promise<boolean> {
  const state = current()
  if (state.saving) return false
  const { providers, formIndex } = providersToSave(state)
  dispatch({ type: 'save-started', formIndex })
  try {
    const result = await call('settings.save', { settings: buildSettings(state, providers) })
    if (result.saved) {
      const written = { draft: state.draft, providers, defaultModel: state.defaultModel }
      dispatch({ type: 'saved', providers, at: Date.now(), settings: written })
      return true
    }
    dispatch({ type: 'save-rejected', issues: result.issues })
  } catch (error) {
    const issues = errorIssues(error)
    if (issues.length > 0) dispatch({ type: 'save-rejected', issues })
    else dispatch({ type: 'save-failed', error: errorMessage(error) })
  }
  return false
}
