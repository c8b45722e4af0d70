import type { ComponentType, JSX } from 'react'
import { lazyPart, type LazyPart } from '../lib/lazy-part'

function SectionMissing(): JSX.Element {
  return (
    <p className="notice notice--error" role="alert">
      This section of Settings could not be loaded. Reload the window to try again.
    </p>
  )
}

/** Nothing: the Settings page waits for its sections before it shows (see its loader). */
function SectionLoading(): null {
  return null
}

/**
 * A feature's section of the Settings page, as its face hands it out: a chunk of its own, loaded
 * with the page (whose loader waits for every section), never with the window.
 */
export function lazySection(load: () => Promise<ComponentType<object>>): LazyPart<object> {
  return lazyPart(load, { loading: SectionLoading, failed: SectionMissing })
}
