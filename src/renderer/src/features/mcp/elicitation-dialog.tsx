import { useEffect, useState, type JSX } from 'react'
import type { ElicitAction, ElicitField, Elicitation } from '../../../../shared/elicitation'
import { Button, type ButtonTone } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError } from '../../ui/form-error'
import { Options } from '../../ui/options'
import { ModalFooter } from '../../ui/modal-parts'
import { Field } from '../../ui/field'
import { useWorkspace } from '../sessions'
import { draftContent, initialDraft, type DraftValue, type ElicitDraft } from './elicitation-form'
import { waitingIn } from './elicitation-reducer'
import {
  answerElicitation,
  editedElicitation,
  useElicitations,
  wireElicitations
} from './elicitation-store'
import './elicitation.css'

/**
 * An MCP server's request for input (elicitation) as a modal form, one at a time, oldest first.
 * What the person types is sent to that server alone: it never enters the conversation.
 */
export function ElicitationDialog(): JSX.Element | null {
  useEffect(() => wireElicitations(), [])
  const workspace = useWorkspace()
  // The raw state, filtered outside the selector, so the selector's value stays stable.
  const state = useElicitations((s) => s.state)
  const waiting = waitingIn(state, workspace)
  const current = waiting[0]
  if (!current) return null
  return <ElicitationForm key={current.elicitationId} request={current} more={waiting.length - 1} />
}

/** The ways to answer without the form: Cancel (not now) and Decline (no). */
const declines: { action: ElicitAction; tone: ButtonTone; label: string }[] = [
  { action: 'cancel', tone: 'ghost', label: 'Cancel' },
  { action: 'decline', tone: 'danger-outline', label: 'Decline' }
]

function ElicitationForm({ request, more }: { request: Elicitation; more: number }): JSX.Element {
  const [draft, setDraft] = useState<ElicitDraft>(() => initialDraft(request.fields))
  const sending = useElicitations((s) => s.state.sendingId === request.elicitationId)
  const error = useElicitations((s) =>
    s.state.error?.elicitationId === request.elicitationId ? s.state.error.text : null
  )
  const { elicitationId, server } = request

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

  return (
    <Dialog
      className="modal-dialog elicitation-dialog"
      labelledBy="elicitation-title"
      describedBy="elicitation-message"
      data-testid="elicitation-dialog"
      data-server={server}
      // Escape cancels; the dialog stays until the server has the answer.
      onClose={() => respond('cancel')}
      initialFocus={firstField}
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
        <div className="approval__body">
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
          <FormError error={error} testId="elicitation-error" />
          <p className="elicitation__privacy">
            What you type goes only to the <span className="mono">{server}</span> MCP server; it is
            not added to the conversation.
          </p>
        </div>
        <ModalFooter hint="Enter submits · Esc cancels">
          {declines.map(({ action, tone, label }) => (
            <Button
              key={action}
              tone={tone}
              data-testid={`elicitation-${action}`}
              disabled={sending}
              onClick={() => respond(action)}
            >
              {label}
            </Button>
          ))}
          <Button type="submit" tone="primary" data-testid="elicitation-submit" disabled={sending}>
            Submit
          </Button>
        </ModalFooter>
      </form>
    </Dialog>
  )
}

/** The first field takes the focus; a request with no fields gives it to Submit. */
function firstField(dialog: HTMLDialogElement): HTMLElement | null {
  return (
    dialog.querySelector<HTMLElement>('[data-elicit-field]') ??
    dialog.querySelector<HTMLElement>('[data-testid="elicitation-submit"]')
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
    <Field label={field.label} required={field.required} hint={field.description} hintAbove>
      {(control) => {
        const own = {
          ...control,
          'data-elicit-field': field.name,
          'data-testid': `elicitation-field-${field.name}`,
          'aria-required': field.required
        }
        return field.kind === 'choice' ? (
          <select
            {...own}
            className="select"
            value={text}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">{field.required ? 'Choose…' : '(none)'}</option>
            <Options of={field.options} />
          </select>
        ) : (
          <input
            {...own}
            className="input"
            type={inputType(field)}
            inputMode={
              field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined
            }
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }}
    </Field>
  )
}

/** Plain text inputs, so what the person typed reaches the check as typed (a number too). */
function inputType(field: ElicitField): string {
  if (field.kind === 'text' && field.format === 'email') return 'email'
  if (field.kind === 'text' && field.format === 'uri') return 'url'
  return 'text'
}
