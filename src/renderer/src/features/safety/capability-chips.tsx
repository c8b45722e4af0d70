import type { JSX } from 'react'
import type { Capabilities } from '../../../../shared/domain'
import { capabilityChips, type CapabilityChip } from './safety-labels'
import './safety.css'

/**
 * A tool's capabilities as small badges, for its tool-call card: `chips` when the transcript has
 * decided which are news in the session (see chip-news), else all of them.
 */
export function CapabilityChips({
  readOnly,
  capabilities,
  chips: decided
}: {
  readOnly: boolean
  capabilities: Capabilities | null
  chips?: readonly CapabilityChip[]
}): JSX.Element | null {
  const chips = decided ?? capabilityChips(readOnly, capabilities)
  if (chips.length === 0) return null
  return (
    <span className="cap-chips" data-testid="tool-capabilities">
      {chips.map((chip) => (
        <span key={chip.label} className={`cap-chip cap-chip--${chip.tone}`} title={chip.title}>
          {chip.label}
        </span>
      ))}
    </span>
  )
}
