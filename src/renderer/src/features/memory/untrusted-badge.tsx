import type { JSX } from 'react'
import type { Provenance } from '../../../../shared/provenance'
import { untrustedMark } from './provenance-mark'

/** The mark of words that may be someone else's (see provenance-mark.ts); nothing when trusted. */
export function UntrustedBadge({
  provenance
}: {
  provenance: Provenance | undefined
}): JSX.Element | null {
  const mark = untrustedMark(provenance)
  if (!mark) return null
  return (
    <span className="badge badge--amber" title={mark.title} data-testid="untrusted-mark">
      {mark.label}
    </span>
  )
}
