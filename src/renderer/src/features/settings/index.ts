// Settings as the rest of the window sees them: the draft the sections read and edit, the card
// each feature's section sits in, the banner that says when the saved file is unusable, and the
// guard that asks before unsaved edits are left. The screen that lays the sections out is
// settings-screen, a tier above every feature whose section it shows.
export { approvalModeOf, mcpEntriesOf, userRulesOf } from './draft-lists'
export { fileOf, readsAs } from './draft-values'
export { leaveSettingsThen, setLeaveGuard } from './leave-guard'
export { SettingsBanner } from './settings-banner'
export { SettingsCard } from './settings-card'
export {
  allModels,
  buildSettings,
  isRecord,
  keyEnvPlaceholders,
  placeIssues,
  providerKinds,
  providerToSettings,
  sameValue,
  type ProviderDraft,
  type ProviderField
} from './settings-model'
export { providersToSave, type ProviderForm, type SettingsState } from './settings-reducer'
export {
  loadSettings,
  reloadSavedSettings,
  saveSettings,
  storeSecret,
  testProvider
} from './settings-store'
export {
  editDraft,
  editSetting,
  editSettings,
  onSettingsChanged,
  setModelPrice,
  settingsFileNow,
  settingsNow,
  useSettingsFile,
  useSettingsView
} from './settings-reads'
