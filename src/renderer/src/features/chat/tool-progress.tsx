import type { JSX } from 'react'
import type { ToolDisplay } from '../../../../shared/domain'
import './tool-progress.css'

type ProgressDisplay = Extract<ToolDisplay, { kind: 'progress' }>

/** "3 of 10", or "3" when the server does not say how much there is. */
export function progressCount(display: ProgressDisplay): string {
  const done = formatAmount(display.progress)
  return display.total === null ? done : `${done} of ${formatAmount(display.total)}`
}

function formatAmount(n: number): string {
  return Number.isInteger(n)
    ? n.toLocaleString()
    : n.toLocaleString(undefined, { maximumFractionDigits: 1 })
}

/**
 * How far a running MCP call got, as its server reports it: a bar when the server gives a
 * total (a moving stripe when it does not), the count, and the server's own words.
 */
export function ToolProgress({ display }: { display: ProgressDisplay }): JSX.Element {
  const known = display.total !== null && display.total > 0
  const share = known ? Math.min(1, Math.max(0, display.progress / (display.total ?? 1))) : 0
  return (
    <div className="tool-progress" data-testid="tool-progress">
      <div
        className={`tool-progress__bar${known ? '' : ' tool-progress__bar--unknown'}`}
        role="progressbar"
        aria-label="Progress the server reports"
        aria-valuemin={0}
        {...(known
          ? { 'aria-valuemax': display.total ?? 0, 'aria-valuenow': display.progress }
          : { 'aria-valuetext': progressCount(display) })}
      >
        <span style={known ? { width: `${share * 100}%` } : undefined} />
      </div>
      <span className="tool-progress__count">{progressCount(display)}</span>
      {display.message && (
        <span className="tool-progress__message" title={display.message}>
          {display.message}
        </span>
      )}
    </div>
  )
}
