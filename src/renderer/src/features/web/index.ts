// Web search as the rest of the window sees it: its Settings section.
export { SearchSection } from './search-section'
