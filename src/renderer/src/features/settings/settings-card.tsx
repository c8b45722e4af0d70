/** One titled block of Settings; the kit's SettingsSection, by the name the features know. */
export { SettingsSection as SettingsCard } from '../../ui/settings-section'
