import type { JSX } from 'react'
import type { SessionTotals } from '../../../../shared/meters'
import { costDescription, totalsLine } from './meter-model'
import './meters.css'

/** A session row's totals (" · 2.5k in · 50 out · $0.0012"), from the summary main keeps. */
export function SessionTotalsLine({ totals }: { totals?: SessionTotals }): JSX.Element | null {
  const line = totals ? totalsLine(totals) : null
  if (!totals || !line) return null
  return (
    <span
      className="session-item__totals"
      data-testid="session-totals"
      title={`${totals.inputTokens.toLocaleString('en-US')} tokens in, ${totals.outputTokens.toLocaleString('en-US')} out, ${totals.cachedTokens.toLocaleString('en-US')} read from cache. ${costDescription(totals)}`}
    >
      {' · '}
      {line}
    </span>
  )
}
