// Web search as the rest of the window sees it: its Settings section.
import { lazySection } from '../../ui/lazy-section'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const SearchSection = lazySection(() =>
  import('./search-section').then((module) => module.SearchSection)
)
