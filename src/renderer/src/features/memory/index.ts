// Memory as the rest of the window sees it: its Settings section and the mark of a note or skill
// whose words came from untrusted input.
export { MemorySection } from './memory-section'
export { untrustedMark } from './provenance-mark'
export { UntrustedBadge } from './untrusted-badge'
