// The Settings screen: it lays out the providers and tools it owns beside every other feature's
// section, and saves them all at once; so it sits above all of them. What the face hands out
// loads the page on first use (lazy-settings-screen.tsx): no project window pays for it at start.
export { SettingsScreen } from './lazy-settings-screen'
