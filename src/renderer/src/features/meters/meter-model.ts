import type { SessionMeters, SessionTotals } from '../../../../shared/meters'
import { cacheShare } from '../../../../shared/meters'
import { formatUsd } from '../../../../shared/model-prices'

/** "950", "12.3k", "1.05M": a token count short enough for the header. */
export function shortTokens(tokens: number): string {
  const n = Number.isFinite(tokens) && tokens > 0 ? tokens : 0
  if (n < 1000) return String(Math.round(n))
  if (n < 999_500) return `${trim(n / 1000)}k`
  return `${trim(n / 1_000_000)}M`
}

function trim(value: number): string {
  // Rounded by hand: toFixed rounds 2.55 down (it is 2.5499… in binary).
  return value < 100 ? String(Math.round(value * 10) / 10) : String(Math.round(value))
}

/** The context meter as drawn: how full, where the compaction mark sits, and what to say. */
export interface ContextGauge {
  /** Fill, 0 to 1 of the window (a figure past the window shows full). */
  fill: number
  /** Where compaction happens, 0 to 1 of the window. */
  mark: number
  /** At or past the mark: the next request compacts older messages first. */
  compacting: boolean
  label: string
  /** Said in full, for the tooltip and for a screen reader. */
  description: string
}

/** The gauge for `meters`; `used` is null until a request of this run of the app has answered. */
export function contextGauge(
  meters: Pick<SessionMeters, 'contextWindow' | 'compactAt' | 'contextTokens'>
): ContextGauge {
  const window = Math.max(1, meters.contextWindow)
  const used = meters.contextTokens
  const mark = Math.min(1, Math.max(0, meters.compactAt / window))
  const threshold = `older messages are summarised past ${shortTokens(meters.compactAt)}`
  if (used === null) {
    return {
      fill: 0,
      mark,
      compacting: false,
      label: `– / ${shortTokens(window)}`,
      description: `Context: not known until the model next answers; the window is ${shortTokens(window)} tokens and ${threshold}.`
    }
  }
  const percent = Math.round((used / window) * 100)
  return {
    fill: Math.min(1, used / window),
    mark,
    compacting: used >= meters.compactAt,
    label: `${shortTokens(used)} / ${shortTokens(window)}`,
    description: `Context: ${shortTokens(used)} of ${shortTokens(window)} tokens (${percent}%) in the latest request; ${threshold}.`
  }
}

/** The session's cost as the header shows it, or null when no turn had a price. */
export function costLabel(totals: SessionTotals): string | null {
  return totals.pricedTurns > 0 ? formatUsd(totals.usd) : null
}

/** What the cost figure means, saying which turns it leaves out and how to count them. */
export function costDescription(totals: SessionTotals): string {
  const turns = (n: number): string => `${n} ${n === 1 ? 'turn' : 'turns'}`
  const left =
    totals.unpricedTurns > 0
      ? ` ${turns(totals.unpricedTurns)} not counted: the model has no price (add one in Settings → Prices).`
      : ''
  if (totals.pricedTurns === 0) {
    return totals.unpricedTurns > 0
      ? `Cost unknown: the model has no price. Add one in Settings → Prices; it counts from the next turn.`
      : 'No turns yet.'
  }
  return `Session cost: ${formatUsd(totals.usd)} over ${turns(totals.pricedTurns)}.${left}`
}

/** "88% cached", or null with no input yet. */
export function cacheLabel(totals: SessionTotals): string | null {
  const share = cacheShare(totals)
  return share === null ? null : `${Math.round(share * 100)}% cached`
}

/**
 * The session row's line: "$0.0012 · 2.6k tokens", the cost first so a narrow list cuts the
 * tokens rather than the money; a "+" when some turns had no price to count.
 */
export function totalsLine(totals: SessionTotals): string | null {
  if (totals.pricedTurns + totals.unpricedTurns === 0) return null
  const cost = costLabel(totals)
  const tokens = `${shortTokens(totals.inputTokens + totals.outputTokens)} tokens`
  return cost ? `${cost}${totals.unpricedTurns > 0 ? '+' : ''} · ${tokens}` : tokens
}
