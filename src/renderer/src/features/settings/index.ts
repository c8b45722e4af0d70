// Settings as the rest of the window sees them: the screen and its banner, the card each
// feature's section sits in, the draft those sections read and edit, and the guard that asks
// before unsaved edits are left.
export { mcpEntriesOf, userRulesOf } from './draft-lists'
export { fileOf, readsAs } from './draft-values'
export { leaveSettingsThen } from './leave-guard'
export { SettingsBanner } from './settings-banner'
export { SettingsCard } from './settings-card'
export { providerToSettings, sameValue } from './settings-model'
export { providersToSave } from './settings-reducer'
export { SettingsScreen } from './settings-screen'
// The store itself, for the sections of other features that read and edit the draft: the
// settings-draft work in progress gives them read hooks and setters of their own.
export { loadSettings, reloadSavedSettings, useSettings } from './settings-store'
