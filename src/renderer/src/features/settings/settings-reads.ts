// How other features read and edit the settings: read hooks over the draft, named edits, and a
// notice when the settings as read change. The store itself stays inside this feature, so no
// section can dispatch an edit the draft does not name.
import type { PriceSettings } from '../../../../shared/model-prices'
import type { DraftAction } from './draft-reducer'
import type { DraftKey } from './draft-values'
import { fileOf } from './draft-values'
import type { SettingsAction, SettingsState } from './settings-reducer'
import { useSettings } from './settings-store'

/** The draft as the settings file would hold it (what each section reads its setting from). */
export function useSettingsFile(): Record<string, unknown> {
  return useSettings((s) => fileOf(s.state.draft))
}

/** The draft file now, outside React. */
export function settingsFileNow(): Record<string, unknown> {
  return fileOf(useSettings.getState().state.draft)
}

/** A value picked out of the settings state: a read hook for what no narrower one names. */
export function useSettingsView<T>(pick: (state: SettingsState) => T): T {
  return useSettings((s) => pick(s.state))
}

/** The settings state now, outside React. */
export function settingsNow(): SettingsState {
  return useSettings.getState().state
}

/** Replaces one whole setting of the draft with what its section built from the file. */
export function editSetting(key: DraftKey, value: unknown): void {
  useSettings.getState().dispatch({ type: 'section-edit', key, value })
}

/**
 * One typed edit of the draft (a rule added or removed, an MCP server put, switched or removed):
 * the screens that show a part of the settings edit it here, so the draft stays the one copy.
 */
export function editDraft(action: DraftAction): void {
  useSettings.getState().dispatch(action)
}

/** Sets (or, with null, removes) the price of one model of one provider in the draft. */
export function setModelPrice(
  providerId: string,
  model: string,
  entry: PriceSettings | null
): void {
  useSettings.getState().dispatch({ type: 'price-set', providerId, model, entry })
}

/**
 * One edit of the Settings screen (its provider form, its mode, its list): the screen sits a tier
 * above this feature and edits only through the actions the reducer names.
 */
export function editSettings(action: SettingsAction): void {
  useSettings.getState().dispatch(action)
}

/** Calls `listener` with the state each time the settings change; returns the unsubscribe. */
export function onSettingsChanged(listener: (state: SettingsState) => void): () => void {
  return useSettings.subscribe((store) => listener(store.state))
}
