import { useEffect, useState, type JSX, type MutableRefObject } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { Button } from '../../ui/button'
import { FormError } from '../../ui/form-error'
import { ModalFooter } from '../../ui/modal-parts'
import { AlwaysAllowPanel, useAlwaysAllow } from './always-allow'
import { ApprovalDetails } from './approval-details'
import { respondToApproval, startReview, useApprovals } from './approvals-store'
import { offersAlwaysAllow } from './describe-approval'

/** What the dialog's keys do to the selected call, set by the panel that shows it. */
export interface PanelKeys {
  allow(): void
  deny(): void
}

/**
 * One call's details, its rule editor and the buttons that decide it. Keyed by request, so the
 * reason typed for one call never carries over to the next.
 */
export function ApprovalRequestPanel({
  request,
  keysRef
}: {
  request: ApprovalRequest
  keysRef: MutableRefObject<PanelKeys | null>
}): JSX.Element {
  const respondingId = useApprovals((s) => s.state.respondingId)
  const error = useApprovals((s) => s.state.error)
  const [reason, setReason] = useState('')
  const always = useAlwaysAllow(request)
  const busy = respondingId !== null
  const respond = (decision: 'allow' | 'deny'): void => {
    if (busy) return
    void respondToApproval(request.approvalId, decision, decision === 'deny' ? reason : '')
  }

  useEffect(() => {
    // While a rule is being written, Enter belongs to the rule editor, not to "Allow once".
    keysRef.current = {
      allow: () => {
        if (!always.draft) respond('allow')
      },
      deny: () => respond('deny')
    }
    return () => {
      keysRef.current = null
    }
  })

  return (
    <>
      <div className="approval__body">
        <ApprovalDetails request={request} />
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
        <FormError error={error} />
      </div>

      <ModalFooter
        lead={
          <Button
            tone="ghost"
            data-testid="approval-review"
            onClick={startReview}
            title="Close this dialog to read the conversation; a bar brings it back"
          >
            Review in transcript
          </Button>
        }
        hintTitle="Enter allows once · Esc denies · Tab moves"
        hint={
          always.draft
            ? 'Saving the rule also allows this call'
            : offersAlwaysAllow(request)
              ? 'Enter allows once · Esc denies'
              : 'No rule can allow this; it is asked every time'
        }
      >
        <Button
          tone="danger-outline"
          data-testid="approval-deny"
          onClick={() => respond('deny')}
          disabled={busy}
        >
          Deny
        </Button>
        {always.draft ? (
          <>
            <Button data-testid="always-allow-back" onClick={always.close} disabled={always.saving}>
              Back
            </Button>
            <Button
              tone="primary"
              data-testid="always-allow-save"
              onClick={always.save}
              disabled={busy || always.saving || always.blocker !== null}
              title={always.blocker ?? undefined}
            >
              {always.saving ? 'Saving…' : 'Save rule and allow'}
            </Button>
          </>
        ) : (
          <>
            {offersAlwaysAllow(request) && (
              <Button data-testid="approval-always" onClick={always.open} disabled={busy}>
                Always allow…
              </Button>
            )}
            <Button
              tone="primary"
              data-testid="approval-allow"
              onClick={() => respond('allow')}
              disabled={busy}
            >
              Allow once
            </Button>
          </>
        )}
      </ModalFooter>
    </>
  )
}
