import { memo, type JSX, type ReactNode } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import { formatUsage } from '../../lib/format'
import { AlertIcon } from '../../lib/icons'
import { formatUsd, type TurnCost } from '../../../../shared/model-prices'
import { cacheShare } from '../../../../shared/meters'
import { GitChangesNotice } from './git-changes-notice'

type TurnEndItem = Extract<TranscriptItem, { kind: 'turn-end' }>

function wasStopped(stopReason: string): boolean {
  return /cancel|abort|stop(ped)?_by_user|interrupt/i.test(stopReason)
}

function usageTitle(usage: TurnEndItem['usage']): string {
  const share = cacheShare(usage)
  const cached = share === null ? '' : ` (${Math.round(share * 100)}% of the input read from cache)`
  return `Tokens this turn sent (in), got back (out) and had read from the provider's cache${cached}`
}

function costTitle(cost: TurnCost): string {
  return cost.source === 'settings'
    ? 'Cost of this turn at the prices set in Settings → Prices'
    : `Cost of this turn at the built-in prices of ${cost.asOf ?? 'the table'}; Settings → Prices can set others`
}

/**
 * Under each finished turn: what it did to git's own files, what it cost, and why it ended when
 * that is news.
 */
export const TurnEnd = memo(function TurnEnd({
  item,
  children
}: {
  item: TurnEndItem
  /** Shown under why it ended, above the line closing the turn (Retry and Continue). */
  children?: ReactNode
}): JSX.Element {
  const { usage } = item
  const hasUsage = usage.inputTokens + usage.outputTokens + usage.cachedTokens > 0
  // Set when a recorded session is loaded: the app stopped (was killed) during this turn.
  const interrupted = item.stopReason === 'interrupted'
  const forked = item.stopReason === 'forked'
  const stopped = !item.error && !interrupted && wasStopped(item.stopReason)
  return (
    <div className="turn-end">
      {item.gitChanges && item.gitChanges.length > 0 && (
        <GitChangesNotice changes={item.gitChanges} />
      )}
      {item.error && (
        <div className="turn-end__error" role="alert" data-testid="turn-error">
          <AlertIcon size={14} />
          <span>{item.error}</span>
        </div>
      )}
      {stopped && (
        <div className="turn-end__stopped" data-testid="turn-stopped">
          Stopped by you
        </div>
      )}
      {interrupted && (
        <div className="turn-end__stopped" data-testid="turn-interrupted">
          Interrupted: Mecatl stopped during this turn. Everything above was recorded.
        </div>
      )}
      {forked && (
        <div className="turn-end__stopped" data-testid="turn-forked">
          Forked from another session here
        </div>
      )}
      {children}
      {/* A turn cut short often has no usage report; zeros would read as a real count. */}
      {(hasUsage || (!item.error && !stopped && !interrupted && !forked)) && (
        <div className="turn-end__usage" data-testid="turn-meter">
          <span data-testid="turn-usage" title={usageTitle(usage)}>
            {formatUsage(usage)}
          </span>
          {/* Unknown models (no price) show tokens only: a guessed cost would read as a bill. */}
          {item.cost && (
            <span data-testid="turn-cost" title={costTitle(item.cost)}>
              {' · '}
              {formatUsd(item.cost.usd)}
            </span>
          )}
        </div>
      )}
    </div>
  )
})
