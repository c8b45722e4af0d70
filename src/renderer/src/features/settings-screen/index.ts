// The Settings screen: it lays out the providers and tools it owns beside every other feature's
// section, and saves them all at once; so it sits above all of them.
export { SettingsScreen } from './settings-screen'
