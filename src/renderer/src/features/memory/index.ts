// Memory as the rest of the window sees it: its Settings section and the mark of a note or skill
// whose words came from untrusted input.
import { lazySection } from '../../ui/lazy-section'
export { untrustedMark } from './provenance-mark'
export { UntrustedBadge } from './untrusted-badge'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const MemorySection = lazySection(() =>
  import('./memory-section').then((module) => module.MemorySection)
)
