import type { Capabilities } from '../../../../shared/domain'
import { capabilityChips, type CapabilityChip } from './safety-labels'

/** What a card's chips are decided from. */
export interface ChipSubject {
  id: string
  readOnly: boolean
  capabilities: Capabilities | null
}

/**
 * Chips that describe the ordinary case. Repeating one on every card of a run is noise: it is
 * news where it starts (the first read after an edit, the first private read, which is when
 * private data entered), not on the eleventh Read in a row.
 */
const QUIET = new Set<CapabilityChip['tone']>(['safe', 'info'])

// Equal decisions share one array, so a memoised card sees an unchanged prop and does not redraw.
const interned = new Map<string, readonly CapabilityChip[]>()
const NONE: readonly CapabilityChip[] = []

function intern(chips: CapabilityChip[]): readonly CapabilityChip[] {
  if (chips.length === 0) return NONE
  const key = chips
    .map((chip) => `${chip.label}\u0000${chip.tone}\u0000${chip.title}`)
    .join('\u0001')
  const known = interned.get(key)
  if (known) return known
  interned.set(key, chips)
  return chips
}

/**
 * The chips each call's card shows in this session, by call id, oldest call first: what carries
 * risk (untrusted input, egress, destructive) on every card; read-only and private only where
 * they start, on a call whose previous call did not carry them.
 */
export function chipNews(
  calls: readonly ChipSubject[]
): ReadonlyMap<string, readonly CapabilityChip[]> {
  let before = new Set<string>()
  const news = new Map<string, readonly CapabilityChip[]>()
  for (const call of calls) {
    const chips = capabilityChips(call.readOnly, call.capabilities)
    const shown = chips.filter((chip) => !QUIET.has(chip.tone) || !before.has(chip.label))
    news.set(call.id, intern(shown))
    before = new Set(chips.map((chip) => chip.label))
  }
  return news
}
