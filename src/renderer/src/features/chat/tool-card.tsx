import { memo, useState, type JSX } from 'react'
import type { ToolCallState, ToolCallView } from '../../../../shared/domain'
import { formatDuration, prettyJson } from '../../lib/format'
import { ChevronIcon } from '../../lib/icons'
import { useNow } from '../../lib/use-now'
import { CapabilityChips, deniedBadge, refusalLabel, type CapabilityChip } from '../safety'
import { useShownSessionId } from './chat-store'
import { CollapsibleCode } from './output-view'
import { plainCard } from '../../../../shared/tool-card'
import { displayToolName } from '../../../../shared/tool-name'
import { resultLabel, ToolResultView } from './tool-result'
import { ToolProgress } from './tool-progress'
import { ShellCallLive } from '../jobs'
import { DelegationView } from '../delegation'
import { CallFilesView } from '../checkpoints'
import './tool-card.css'

const stateLabels: Record<ToolCallState, string> = {
  'awaiting-approval': 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied'
}

const stateTones: Record<ToolCallState, string> = {
  'awaiting-approval': 'amber',
  running: 'blue',
  done: 'green',
  failed: 'red',
  denied: 'red'
}

export function StateBadge({
  state,
  refusedBy = null
}: {
  state: ToolCallState
  refusedBy?: string | null
}): JSX.Element {
  return (
    <span className={`badge badge--${stateTones[state]}`} data-testid="tool-state">
      {state === 'running' && <span className="spinner-dot spinner-dot--small" />}
      {state === 'denied' ? deniedBadge(refusedBy) : stateLabels[state]}
    </span>
  )
}

/** The reason the model was given: a denied call's output is that reason. */
function outputText(call: ToolCallView): string {
  return (call.output?.content ?? [])
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ')
    .trim()
}

function Duration({ call }: { call: ToolCallView }): JSX.Element | null {
  const running = call.state === 'running' && call.startedAt !== null && call.endedAt === null
  const now = useNow(1000, running)
  if (call.startedAt === null) return null
  const end = call.endedAt ?? (running ? now : null)
  if (end === null) return null
  return <span className="tool-card__duration">{formatDuration(end - call.startedAt)}</span>
}

/** One tool call: name, key argument, state, duration; arguments and output on demand. */
export const ToolCard = memo(function ToolCard({
  call,
  sessionId = null,
  chips,
  reveal = false
}: {
  call: ToolCallView
  /** The session it belongs to: its file changes can then be shown and reverted. */
  sessionId?: string | null
  /** The capability chips that are news in the session (absent: all of them). */
  chips?: readonly CapabilityChip[]
  /** Show the details whatever the person chose: the find bar has a hit in them. */
  reveal?: boolean
}): JSX.Element {
  const [chosen, setOpen] = useState(call.state === 'failed')
  const shownSessionId = useShownSessionId()
  const open = chosen || reveal
  // What its tool says of it (main sends it); a call recorded before that has a plain card.
  const card = call.card ?? plainCard(call.name, call.input)
  const { summary } = card
  const detailsId = `tool-details-${call.id}`
  const errorOutput = call.state === 'done' && call.output?.isError
  const shown = call.output?.display
  // A report in progress, not a result: shown on the card while the call runs.
  const progress = call.state === 'running' && shown?.kind === 'progress' ? shown : null
  return (
    <div
      className={`tool-card tool-card--${call.state}${errorOutput ? ' tool-card--soft-error' : ''}`}
      data-testid="tool-card"
      data-tool={call.name}
      data-state={call.state}
    >
      <button
        type="button"
        className="tool-card__header"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((v) => !v)}
      >
        <ChevronIcon
          className={`tool-card__chevron${open ? ' tool-card__chevron--open' : ''}`}
          size={14}
        />
        <span className="tool-card__name" title={call.name}>
          {displayToolName(call.name)}
        </span>
        <span className="tool-card__summary mono" title={summary}>
          {summary}
        </span>
        <CapabilityChips readOnly={call.readOnly} capabilities={call.capabilities} chips={chips} />
        <Duration call={call} />
        <StateBadge state={call.state} refusedBy={call.refusedBy} />
      </button>
      {call.state === 'denied' && (
        <p
          className="tool-card__refusal"
          data-testid="tool-refusal"
          data-refused-by={call.refusedBy ?? ''}
        >
          <strong>{refusalLabel(call.refusedBy)}</strong>
          {outputText(call) && <> — {outputText(call)}</>}
        </p>
      )}
      {progress && <ToolProgress display={progress} />}
      {card.resultView === 'job' && <ShellCallLive call={call} sessionId={shownSessionId} />}
      <DelegationView call={call} sessionId={shownSessionId} />
      <CallFilesView sessionId={sessionId} call={call} />
      {open && (
        <div className="tool-card__details" id={detailsId}>
          <div className="tool-card__section-label">Arguments</div>
          <CollapsibleCode
            text={prettyJson(call.input) || '{}'}
            className="tool-args"
            testId="tool-args"
          />
          {call.output && !progress && (
            <>
              <div className="tool-card__section-label">
                {resultLabel(call.output)}
                {call.output.external && (
                  <span className="tool-card__external">from outside this machine</span>
                )}
              </div>
              {call.output.confinement && (
                <div
                  className={`tool-card__confinement${call.output.confinement.startsWith('confined') ? '' : ' tool-card__confinement--open'}`}
                  data-testid="tool-confinement"
                >
                  Shell: {call.output.confinement}
                </div>
              )}
              <ToolResultView output={call.output} tool={call.name} view={card.resultView} />
            </>
          )}
        </div>
      )}
    </div>
  )
})
