import { useId, useRef, type JSX } from 'react'
import { formatRelative } from '../../lib/format'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError } from '../../ui/form-error'
import {
  authorOf,
  forgetQuestion,
  revisionLabel,
  undoQuestion,
  type MemoryAction,
  type MemoryState
} from './memory-reducer'
import { runAction, useMemory } from './memory-store'
import { untrustedMark } from './provenance-mark'
import { UntrustedBadge } from './untrusted-badge'

function exact(at: number): string {
  return new Date(at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })
}

/**
 * Forget or Undo, asked in place of the buttons: the page stays usable around it, the focus
 * starts on Cancel, and Escape is Cancel too.
 */
function MemoryConfirm({
  action,
  question,
  busy
}: {
  action: MemoryAction
  question: string
  busy: boolean
}): JSX.Element {
  const dispatch = useMemory((s) => s.dispatch)
  const questionId = useId()
  const cancel = useRef<HTMLButtonElement>(null)
  const close = (): void => dispatch({ type: 'confirm', action: null })
  return (
    <Dialog
      modal={false}
      role="alertdialog"
      label="Confirm"
      describedBy={questionId}
      className="memory-confirm"
      data-testid="memory-confirm"
      onClose={close}
      initialFocus={cancel}
    >
      <p id={questionId}>{question}</p>
      <div className="memory-confirm__buttons">
        <Button
          small
          tone={action === 'forget' ? 'danger-outline' : 'primary'}
          data-testid="memory-confirm-yes"
          disabled={busy}
          onClick={() => void runAction(action)}
        >
          {action === 'forget' ? 'Forget' : 'Undo'}
        </Button>
        <Button
          ref={cancel}
          small
          tone="ghost"
          data-testid="memory-confirm-no"
          disabled={busy}
          onClick={close}
        >
          Cancel
        </Button>
      </div>
    </Dialog>
  )
}

/** One memory: its content, where it came from, its history, and Forget / Undo. */
export function MemoryDetail({ state, now }: { state: MemoryState; now: number }): JSX.Element {
  const dispatch = useMemory((s) => s.dispatch)
  const { detail } = state
  if (state.detailError) {
    return (
      <div className="memory-detail memory-detail--empty" data-testid="memory-detail">
        <p className="field-error" role="alert">
          {state.detailError}
        </p>
      </div>
    )
  }
  if (!detail) {
    return (
      <div className="memory-detail memory-detail--empty" data-testid="memory-detail">
        <p className="muted">
          {state.selected ? 'Loading…' : 'Select a memory to see its content and history.'}
        </p>
      </div>
    )
  }
  const { entry, history, totalRevisions, origin } = detail
  const mark = entry.content === null ? null : untrustedMark(entry.provenance)
  const question =
    state.confirming === 'forget'
      ? forgetQuestion(detail)
      : state.confirming === 'undo'
        ? undoQuestion(detail)
        : null

  return (
    <div className="memory-detail" data-testid="memory-detail" data-state={entry.state}>
      <div className="memory-detail__head">
        <h3 className="memory-detail__name">{entry.name}</h3>
        <span
          className={`badge ${entry.state === 'live' ? 'badge--green' : 'badge--neutral'}`}
          data-testid="memory-state"
        >
          {entry.state === 'live' ? 'Live' : 'Forgotten'}
        </span>
        {mark && <UntrustedBadge provenance={entry.provenance} />}
      </div>
      <dl className="memory-facts">
        <dt>Version</dt>
        <dd className="mono" data-testid="memory-version">
          {entry.version}
        </dd>
        {origin && (
          <>
            <dt>Created</dt>
            <dd title={exact(origin.at)}>
              {formatRelative(origin.at, now)} by {authorOf(origin.sessionId)}
            </dd>
          </>
        )}
        <dt>Last change</dt>
        <dd title={exact(entry.updatedAt)}>
          {revisionLabel({ ...entry, at: entry.updatedAt, kind: entry.lastKind })}{' '}
          {formatRelative(entry.updatedAt, now)} by {authorOf(entry.sessionId)}
        </dd>
        {mark && (
          <>
            <dt>Where from</dt>
            <dd className="memory-detail__provenance" data-testid="memory-provenance">
              {mark.title}
            </dd>
          </>
        )}
      </dl>

      {entry.content === null ? (
        <p className="memory-detail__nothing muted">
          It holds nothing now; the model will not recall or find it.
        </p>
      ) : (
        <pre className="memory-detail__content" data-testid="memory-content">
          {entry.content}
        </pre>
      )}

      {state.confirming && question ? (
        <MemoryConfirm action={state.confirming} question={question} busy={state.busy} />
      ) : (
        <div className="memory-actions">
          <Button
            small
            tone="danger-outline"
            data-testid="memory-forget"
            disabled={entry.state === 'forgotten' || state.busy}
            title={entry.state === 'forgotten' ? 'Already forgotten' : undefined}
            onClick={() => dispatch({ type: 'confirm', action: 'forget' })}
          >
            Forget
          </Button>
          <Button
            small
            data-testid="memory-undo"
            disabled={state.busy}
            onClick={() => dispatch({ type: 'confirm', action: 'undo' })}
          >
            {entry.lastKind === 'forget' ? 'Undo forget' : 'Undo last change'}
          </Button>
        </div>
      )}
      <FormError error={state.actionError} testId="memory-action-error" />
      {state.notice && (
        <p className="memory-notice" role="status" data-testid="memory-notice">
          {state.notice}
        </p>
      )}

      <h4 className="memory-history__title">
        History{' '}
        <span className="muted">
          ({history.length < totalRevisions ? `latest ${history.length} of ` : ''}
          {totalRevisions} {totalRevisions === 1 ? 'change' : 'changes'})
        </span>
      </h4>
      <ol className="memory-history" data-testid="memory-history">
        {history.map((revision) => (
          <li key={revision.version} className="memory-history__row" data-kind={revision.kind}>
            <span className="memory-history__what">
              {revisionLabel(revision)}{' '}
              <span className="muted" title={exact(revision.at)}>
                {formatRelative(revision.at, now)} · {authorOf(revision.sessionId)}
              </span>
              {revision.content !== null && <UntrustedBadge provenance={revision.provenance} />}
            </span>
            <span className="memory-history__content">
              {revision.content === null ? <em className="muted">nothing</em> : revision.content}
            </span>
          </li>
        ))}
      </ol>
    </div>
  )
}
