import type { JSX } from 'react'
import type { Capabilities } from '../../../../shared/domain'
import { capabilityChips } from './safety-labels'
import './safety.css'

/** A tool's capabilities as small badges, for its tool-call card. */
export function CapabilityChips({
  readOnly,
  capabilities
}: {
  readOnly: boolean
  capabilities: Capabilities | null
}): JSX.Element | null {
  const chips = capabilityChips(readOnly, capabilities)
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
