import { useState, type JSX } from 'react'
import type { ChildStep, ToolCallState } from '../../../../shared/domain'
import { ChevronIcon } from '../../lib/icons'
import { keyArgument } from '../../../../shared/tool-input'
import { deniedBadge } from '../safety'

const tones: Record<ToolCallState, string> = {
  'awaiting-approval': 'amber',
  running: 'blue',
  done: 'green',
  failed: 'red',
  denied: 'red'
}

const labels: Record<ToolCallState, string> = {
  'awaiting-approval': 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied'
}

type CallStep = Extract<ChildStep, { kind: 'call' }>

/** One call the child made: name, key argument and state; its output on demand. */
function ChildCall({ step }: { step: CallStep }): JSX.Element {
  const [open, setOpen] = useState(false)
  return (
    <li
      className="child-call"
      data-testid="child-call"
      data-tool={step.name}
      data-state={step.state}
    >
      <button
        type="button"
        className="child-call__head"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        disabled={step.output === null}
      >
        <ChevronIcon className={`child-chevron${open ? ' child-chevron--open' : ''}`} size={12} />
        <span className="child-call__name">{step.name}</span>
        <span className="child-call__summary mono">{step.summary ?? keyArgument(step.input)}</span>
        <span className={`badge badge--${tones[step.state]}`}>
          {step.state === 'denied' ? deniedBadge(step.refusedBy) : labels[step.state]}
        </span>
      </button>
      {open && step.output !== null && <pre className="child-call__output mono">{step.output}</pre>}
    </li>
  )
}

/** A child agent's own transcript, nested in its parent's card and folded on demand. */
export function ChildTranscript({
  title,
  steps,
  running,
  note = null
}: {
  title: string
  steps: readonly ChildStep[]
  running: boolean
  note?: string | null
}): JSX.Element {
  const [open, setOpen] = useState(true)
  const calls = steps.filter((s) => s.kind === 'call').length
  return (
    <section className="child-transcript" data-testid="child-transcript">
      <button
        type="button"
        className="child-transcript__head"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        data-testid="child-transcript-toggle"
      >
        <ChevronIcon className={`child-chevron${open ? ' child-chevron--open' : ''}`} size={12} />
        <span className="child-transcript__title">{title}</span>
        <span className="child-transcript__meta">
          {calls} {calls === 1 ? 'tool call' : 'tool calls'}
          {running && ' · working…'}
        </span>
      </button>
      {open && (
        <ol className="child-transcript__steps">
          {steps.map((step) =>
            step.kind === 'text' ? (
              <li key={step.id} className="child-text" data-testid="child-text">
                {step.text}
              </li>
            ) : (
              <ChildCall key={step.id} step={step} />
            )
          )}
          {steps.length === 0 && <li className="child-text child-text--empty">Starting…</li>}
        </ol>
      )}
      {note && (
        <p className="child-transcript__note" data-testid="child-note">
          {note}
        </p>
      )}
    </section>
  )
}
