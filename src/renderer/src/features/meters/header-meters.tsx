import { useEffect, useState, type JSX } from 'react'
import type { SessionSummary } from '../../../../shared/domain'
import type { SessionMeters } from '../../../../shared/meters'
import { call } from '../../bridge/client'
import { cacheLabel, contextGauge, costDescription, costLabel } from './meter-model'
import './meters.css'

/**
 * The chat header's meters: context used of the model's window with the compaction threshold
 * marked, the session's cost, and the share of its input read from the provider's cache. The
 * window and threshold come from main (worked out as the next turn will); they are asked again
 * when a turn ends or the model changes. The totals follow the session's summary as it updates.
 */
export function HeaderMeters({
  session,
  running
}: {
  session: SessionSummary | null
  running: boolean
}): JSX.Element | null {
  const sessionId = session?.id ?? null
  const model = session?.model ? `${session.model.providerId}/${session.model.model}` : ''
  const [meters, setMeters] = useState<{ id: string; value: SessionMeters } | null>(null)
  const [failed, setFailed] = useState<string | null>(null)

  useEffect(() => {
    if (!sessionId || running) return
    let live = true
    call('session.meters', { sessionId })
      .then((value) => {
        if (!live) return
        setMeters({ id: sessionId, value })
        setFailed(null)
      })
      .catch((error: unknown) => {
        if (live) setFailed(error instanceof Error ? error.message : String(error))
      })
    return () => {
      live = false
    }
  }, [sessionId, model, running])

  if (!session) return null
  const current = meters?.id === session.id ? meters.value : null
  if (!current) {
    return failed ? (
      <span className="meters meters--failed" data-testid="meters" title={failed}>
        Meters unavailable
      </span>
    ) : null
  }
  const totals = session.totals ?? current.totals
  const gauge = contextGauge(current)
  const cost = costLabel(totals)
  const cached = cacheLabel(totals)
  return (
    <span className="meters" data-testid="meters">
      <span
        className="meters__context"
        data-testid="meter-context"
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={current.contextWindow}
        aria-valuenow={current.contextTokens ?? 0}
        aria-valuetext={gauge.description}
        title={gauge.description}
        data-compacting={gauge.compacting ? 'true' : 'false'}
      >
        <span className="meters__bar" aria-hidden="true">
          <span
            className="meters__fill"
            style={{ width: gauge.fill > 0 ? `max(2px, ${gauge.fill * 100}%)` : '0' }}
          />
          <span
            className="meters__mark"
            data-testid="meter-threshold"
            style={{ left: `${gauge.mark * 100}%` }}
          />
        </span>
        <span className="meters__figure">{gauge.label}</span>
      </span>
      <span
        className="meters__figure meters__cost"
        data-testid="meter-cost"
        title={
          cached ? `${costDescription(totals)} ${cached} of its input.` : costDescription(totals)
        }
      >
        {cost ?? 'no price'}
      </span>
      {cached && (
        <span
          className="meters__figure meters__cache"
          data-testid="meter-cache"
          title="Share of this session's input tokens the provider read from its prompt cache"
        >
          {cached}
        </span>
      )}
    </span>
  )
}
