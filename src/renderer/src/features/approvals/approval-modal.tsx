import { useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { ApprovalRequest } from '../../../../shared/domain'
import { prettyJson } from '../../lib/format'
import { ShieldIcon } from '../../lib/icons'
import { useSessions } from '../sessions/sessions-store'
import { AlwaysAllowPanel, useAlwaysAllow } from './always-allow'
import { respondToApproval, useApprovals } from './approvals-store'
import {
  approvalPreview,
  capabilityBadges,
  describeApproval,
  offersAlwaysAllow,
  reasonParts
} from './describe-approval'
import { useVisibleApprovals } from './use-visible-approvals'
import './approvals.css'

function Preview({ request }: { request: ApprovalRequest }): JSX.Element | null {
  const preview = approvalPreview(request)
  if (!preview) return null
  if (preview.kind === 'write') {
    return (
      <div className="approval__section">
        <div className="approval__label">Content{preview.path ? ` of ${preview.path}` : ''}</div>
        <pre className="approval__code" data-testid="approval-content">
          {preview.content || '(empty file)'}
        </pre>
      </div>
    )
  }
  return (
    <div className="approval__section approval__diff">
      <div className="approval__label">Replace</div>
      <pre className="approval__code approval__code--old">{preview.old}</pre>
      <div className="approval__label">With</div>
      <pre className="approval__code approval__code--new">{preview.new}</pre>
    </div>
  )
}

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(
    root.querySelectorAll<HTMLElement>(
      'button:not([disabled]), textarea, input, select, [tabindex="0"]'
    )
  )
}

/**
 * Asks the person about one tool call at a time. Enter allows only when Allow has focus, and
 * Escape moves focus to Deny rather than denying, so no key press decides by accident.
 */
export function ApprovalModal(): JSX.Element | null {
  const visible = useVisibleApprovals()
  const request = visible[0]
  if (!request) return null
  // Keyed by request, so the reason typed for one call never carries over to the next.
  return <ApprovalDialog key={request.approvalId} request={request} waiting={visible.length} />
}

function ApprovalDialog({
  request,
  waiting
}: {
  request: ApprovalRequest
  waiting: number
}): JSX.Element {
  const respondingId = useApprovals((s) => s.state.respondingId)
  const error = useApprovals((s) => s.state.error)
  const sessionTitle = useSessions(
    (s) => s.state.sessions.find((x) => x.id === request.sessionId)?.title ?? null
  )
  const [reason, setReason] = useState('')
  const always = useAlwaysAllow(request)
  const dialog = useRef<HTMLDivElement>(null)
  const denyButton = useRef<HTMLButtonElement>(null)

  // Focus the dialog itself: a stray Enter then decides nothing.
  useEffect(() => {
    dialog.current?.focus()
  }, [])

  const responding = respondingId === request.approvalId

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      denyButton.current?.focus()
      return
    }
    if (event.key === 'Tab' && dialog.current) {
      const items = focusables(dialog.current)
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      const active = document.activeElement
      if (event.shiftKey && (active === first || active === dialog.current)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && active === last) {
        event.preventDefault()
        first.focus()
      }
    }
  }

  const respond = (decision: 'allow' | 'deny'): void => {
    void respondToApproval(request.approvalId, decision, decision === 'deny' ? reason : '')
  }

  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className="modal approval"
        role="dialog"
        aria-modal="true"
        aria-labelledby="approval-title"
        aria-describedby="approval-sentence"
        data-testid="approval-modal"
        data-tool={request.tool}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="approval__header">
          <span className="approval__icon">
            <ShieldIcon size={18} />
          </span>
          <div className="approval__heading">
            <h2 id="approval-title" className="approval__title">
              Allow <span className="mono">{request.tool}</span>?
            </h2>
            <div className="approval__meta">
              {sessionTitle ? `In “${sessionTitle}”` : 'The model asks to use a tool'}
              {waiting > 1 && ` · 1 of ${waiting} waiting`}
            </div>
          </div>
        </header>

        <div className="approval__body">
          <p id="approval-sentence" className="approval__sentence">
            {describeApproval(request)}
          </p>
          <div className="approval__badges" data-testid="approval-capabilities">
            {capabilityBadges(request.readOnly, request.capabilities).map((badge) => (
              <span
                key={badge.label}
                className={`badge badge--cap-${badge.tone}`}
                title={badge.title}
              >
                {badge.label}
              </span>
            ))}
          </div>
          {request.reason && (
            <p className="approval__why" data-testid="approval-why">
              Asked because{' '}
              {reasonParts(request.reason).map((part, i) =>
                part.code ? (
                  <code key={i} className="mono">
                    {part.text}
                  </code>
                ) : (
                  part.text
                )
              )}
              .
            </p>
          )}
          <Preview request={request} />
          <div className="approval__section">
            <div className="approval__label">Arguments</div>
            <pre className="approval__code approval__args" data-testid="approval-args" tabIndex={0}>
              {prettyJson(request.input) || '{}'}
            </pre>
          </div>
          <AlwaysAllowPanel state={always} />
          {!always.draft && (
            <label className="approval__reason">
              <span className="approval__label">Tell the model why (optional)</span>
              <textarea
                className="textarea"
                data-testid="approval-reason"
                rows={2}
                value={reason}
                placeholder="Sent with a denial, e.g. “don’t touch generated files”"
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>

        <footer className="approval__footer">
          <span className="approval__hint">
            {always.draft
              ? 'Saving the rule also allows this call'
              : offersAlwaysAllow(request)
                ? 'Esc focuses Deny'
                : 'No rule can allow this; it is asked every time'}
          </span>
          <button
            ref={denyButton}
            type="button"
            className="button button--danger-outline"
            data-testid="approval-deny"
            onClick={() => respond('deny')}
            disabled={responding}
          >
            Deny
          </button>
          {always.draft ? (
            <>
              <button
                type="button"
                className="button"
                data-testid="always-allow-back"
                onClick={always.close}
                disabled={always.saving}
              >
                Back
              </button>
              <button
                type="button"
                className="button button--primary"
                data-testid="always-allow-save"
                onClick={always.save}
                disabled={responding || always.saving || always.blocker !== null}
                title={always.blocker ?? undefined}
              >
                {always.saving ? 'Saving…' : 'Save rule and allow'}
              </button>
            </>
          ) : (
            <>
              {offersAlwaysAllow(request) && (
                <button
                  type="button"
                  className="button"
                  data-testid="approval-always"
                  onClick={always.open}
                  disabled={responding}
                >
                  Always allow…
                </button>
              )}
              <button
                type="button"
                className="button button--primary"
                data-testid="approval-allow"
                onClick={() => respond('allow')}
                disabled={responding}
              >
                Allow once
              </button>
            </>
          )}
        </footer>
      </div>
    </div>
  )
}
