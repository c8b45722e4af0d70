// The window's look as the rest of it sees it: the theme section of Settings, the painted theme
// (for what CSS cannot reach, like a terminal) and the screen-reader announcer.
export { AppearanceSection } from './appearance-section'
export { wireAnnouncer } from './announcer'
export { currentTheme, useResolvedTheme, wireTheme } from './page-theme'
export { terminalTheme } from './terminal-theme'
