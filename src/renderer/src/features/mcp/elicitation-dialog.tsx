import { useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { ElicitAction, ElicitField, Elicitation } from '../../../../shared/elicitation'
import { useSessions } from '../sessions/sessions-store'
import { draftContent, initialDraft, type DraftValue, type ElicitDraft } from './elicitation-form'
import { waitingIn } from './elicitation-reducer'
import {
  answerElicitation,
  editedElicitation,
  useElicitations,
  wireElicitations
} from './elicitation-store'
import '../approvals/approvals.css'
import './elicitation.css'

/**
 * An MCP server's request for input (elicitation) as a modal form, one at a time, oldest first.
 * What the person types is sent to that server alone: it never enters the conversation.
 */
export function ElicitationDialog(): JSX.Element | null {
  useEffect(() => wireElicitations(), [])
  const workspace = useSessions((s) => s.state.workspace)
  // The raw state, filtered outside the selector, so the selector's value stays stable.
  const state = useElicitations((s) => s.state)
  const waiting = waitingIn(state, workspace)
  const current = waiting[0]
  if (!current) return null
  return <ElicitationForm key={current.elicitationId} request={current} more={waiting.length - 1} />
}

function ElicitationForm({ request, more }: { request: Elicitation; more: number }): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null)
  const [draft, setDraft] = useState<ElicitDraft>(() => initialDraft(request.fields))
  const sending = useElicitations((s) => s.state.sendingId === request.elicitationId)
  const error = useElicitations((s) =>
    s.state.error?.elicitationId === request.elicitationId ? s.state.error.text : null
  )
  const { elicitationId, server } = request

  // Modal while it exists; the first field takes the focus, which goes back where it was after.
  useEffect(() => {
    const element = ref.current
    const before = document.activeElement
    if (element && !element.open) element.showModal()
    const first = element?.querySelector<HTMLElement>('[data-elicit-field]')
    ;(first ?? element?.querySelector<HTMLElement>('[data-testid="elicitation-submit"]'))?.focus()
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus()
    }
  }, [])

  const respond = (action: ElicitAction): void => {
    if (sending) return
    void answerElicitation(
      elicitationId,
      action,
      action === 'accept' ? draftContent(request.fields, draft) : undefined
    )
  }
  const set = (name: string, value: DraftValue): void => {
    setDraft({ ...draft, [name]: value })
    if (error) editedElicitation(elicitationId)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key === 'Escape') {
      // Cancel, and not also "stop the turn", which Escape means elsewhere in the window.
      event.preventDefault()
      event.stopPropagation()
      respond('cancel')
    }
  }

  return (
    <dialog
      ref={ref}
      className="modal-dialog elicitation-dialog"
      aria-labelledby="elicitation-title"
      aria-describedby="elicitation-message"
      data-testid="elicitation-dialog"
      data-server={server}
      onKeyDown={onKeyDown}
      // Escape is handled as Cancel above; a close the browser forces is undone while it waits.
      onCancel={(event) => event.preventDefault()}
      onClose={() => {
        const element = ref.current
        if (element?.isConnected && !element.open) element.showModal()
      }}
    >
      <form
        className="modal elicitation"
        noValidate
        onSubmit={(event) => {
          // Enter in a field submits; what fits is checked by the main process, which says why.
          event.preventDefault()
          respond('accept')
        }}
      >
        <header className="approval__header">
          <span className="approval__icon elicitation__icon" aria-hidden="true">
            ?
          </span>
          <div className="elicitation__heading">
            <h2 id="elicitation-title" className="elicitation__title">
              <span className="mono">{server}</span> asks
            </h2>
            <div className="elicitation__meta">
              An MCP server needs some input
              {more > 0 && (
                <span className="elicitation__more" data-testid="elicitation-more">
                  {' '}
                  · {more} more
                </span>
              )}
            </div>
          </div>
        </header>
        <div className="elicitation__body">
          <p id="elicitation-message" className="elicitation__message">
            {request.message}
          </p>
          {request.fields.map((field) => (
            <FieldControl
              key={field.name}
              field={field}
              value={draft[field.name]}
              onChange={(value) => set(field.name, value)}
            />
          ))}
          {error && (
            <p className="field-error" role="alert" data-testid="elicitation-error">
              {error}
            </p>
          )}
          <p className="elicitation__privacy">
            What you type goes only to the <span className="mono">{server}</span> MCP server; it is
            not added to the conversation.
          </p>
        </div>
        <footer className="approval__footer">
          <span className="approval__hint">Enter submits · Esc cancels</span>
          <button
            type="button"
            className="button button--ghost"
            data-testid="elicitation-cancel"
            disabled={sending}
            onClick={() => respond('cancel')}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger-outline"
            data-testid="elicitation-decline"
            disabled={sending}
            onClick={() => respond('decline')}
          >
            Decline
          </button>
          <button
            type="submit"
            className="button button--primary"
            data-testid="elicitation-submit"
            disabled={sending}
          >
            Submit
          </button>
        </footer>
      </form>
    </dialog>
  )
}

function FieldControl({
  field,
  value,
  onChange
}: {
  field: ElicitField
  value: DraftValue | undefined
  onChange: (value: DraftValue) => void
}): JSX.Element {
  const id = `elicit-${field.name}`
  const hintId = field.description ? `${id}-hint` : undefined
  const label = (
    <span className="field__label">
      {field.label}
      {field.required && <span className="field__required">required</span>}
    </span>
  )
  const hint = field.description && (
    <span className="field__hint" id={hintId}>
      {field.description}
    </span>
  )
  const common = {
    id,
    'data-elicit-field': field.name,
    'data-testid': `elicitation-field-${field.name}`,
    'aria-describedby': hintId,
    'aria-required': field.required
  }

  if (field.kind === 'boolean') {
    return (
      <div className="field">
        <label className="elicitation__check">
          <input
            type="checkbox"
            {...common}
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          {label}
        </label>
        {hint}
      </div>
    )
  }
  if (field.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : []
    return (
      <fieldset className="field elicitation__group" aria-describedby={hintId}>
        <legend>{label}</legend>
        {hint}
        {field.options.map((option, i) => (
          <label key={option.value} className="elicitation__check">
            <input
              type="checkbox"
              {...(i === 0 ? common : {})}
              checked={chosen.includes(option.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? [...chosen, option.value]
                    : chosen.filter((v) => v !== option.value)
                )
              }
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    )
  }
  const text = typeof value === 'string' ? value : ''
  return (
    <label className="field" htmlFor={id}>
      {label}
      {hint}
      {field.kind === 'choice' ? (
        <select
          {...common}
          className="select"
          value={text}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{field.required ? 'Choose…' : '(none)'}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          className="input"
          type={inputType(field)}
          inputMode={field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </label>
  )
}

/** Plain text inputs, so what the person typed reaches the check as typed (a number too). */
function inputType(field: ElicitField): string {
  if (field.kind === 'text' && field.format === 'email') return 'email'
  if (field.kind === 'text' && field.format === 'uri') return 'url'
  return 'text'
}
