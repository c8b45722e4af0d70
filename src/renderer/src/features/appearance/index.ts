// The window's look as the rest of it sees it: the theme section of Settings, the painted theme
// (for what CSS cannot reach, like a terminal) and the screen-reader announcer.
import { lazySection } from '../../ui/lazy-section'
export { wireAnnouncer } from './announcer'
export { currentTheme, useResolvedTheme, wireTheme } from './page-theme'
export { terminalTheme } from './terminal-theme'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const AppearanceSection = lazySection(() =>
  import('./appearance-section').then((module) => module.AppearanceSection)
)
