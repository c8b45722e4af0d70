import { provenanceWords, type Provenance } from '../../../../shared/provenance'

/** How the window marks text that may carry someone else's words: a short label and why. */
export interface UntrustedMark {
  label: string
  /** Where the words came from, and what reading them does. */
  title: string
}

const labels: Record<Exclude<Provenance['trust'], 'trusted'>, string> = {
  'untrusted-input': 'Untrusted',
  'untrusted-folder': 'Untrusted folder',
  unknown: 'Origin unknown'
}

/**
 * The mark of a memory, revision or skill written in a conversation that held untrusted input;
 * null for one a person or a clean conversation wrote, which gets none.
 */
export function untrustedMark(provenance: Provenance | undefined): UntrustedMark | null {
  if (!provenance || provenance.trust === 'trusted') return null
  const from = provenanceWords(provenance) ?? ''
  return {
    label: labels[provenance.trust],
    title: `${from.charAt(0).toUpperCase()}${from.slice(1)}. A session that reads it counts it as untrusted input, so sends the model aims are refused there afterwards.`
  }
}
