import { useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { ShieldIcon } from '../../lib/icons'
import { Button, type ButtonTone } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { ModalHeader } from '../../ui/modal-parts'
import { useSessionList } from '../sessions'
import { ApprovalRequestPanel, type PanelKeys } from './approval-request'
import { respondToAll, respondToApproval, useApprovals } from './approvals-store'
import { ReviewBar } from './review-bar'
import { useVisibleApprovals } from './use-visible-approvals'
import './approvals.css'

/**
 * The product's approval surface: every call waiting in this window's project, in one native
 * modal dialog with a row each. Closed for review, a bar stands in for it until it is reopened.
 */
export function ApprovalModal(): JSX.Element | null {
  const visible = useVisibleApprovals()
  const reviewing = useApprovals((s) => s.state.reviewing)
  if (visible.length === 0) return null
  if (reviewing) return <ReviewBar waiting={visible} />
  return <ApprovalDialog requests={visible} />
}

/** Keys a control handles itself: Enter there presses it, types a line, or picks an option. */
function ownsEnter(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest('button, a, input, textarea, select, summary, [contenteditable="true"]') !== null
  )
}

/** The two answers each waiting call's row offers, and the pair under the rows for all of them. */
const answers: {
  answer: 'deny' | 'allow'
  tone?: ButtonTone
  label: string
  name: (tool: string) => string
}[] = [
  { answer: 'deny', tone: 'danger-outline', label: 'Deny', name: (tool) => `Deny ${tool}` },
  { answer: 'allow', label: 'Allow', name: (tool) => `Allow ${tool} once` }
]

function ApprovalDialog({ requests }: { requests: ApprovalRequest[] }): JSX.Element {
  const keysRef = useRef<PanelKeys | null>(null)
  const [chosenId, setChosenId] = useState<string | null>(null)
  const selected = requests.find((r) => r.approvalId === chosenId) ?? requests[0]!
  const respondingId = useApprovals((s) => s.state.respondingId)
  const sessions = useSessionList()
  const titleOf = (sessionId: string): string | null =>
    sessions.find((x) => x.id === sessionId)?.title ?? null
  const sessionTitle = titleOf(selected.sessionId)
  const several = requests.length > 1

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key === 'Enter' && !event.repeat && !ownsEnter(event.target)) {
      event.preventDefault()
      event.stopPropagation()
      keysRef.current?.allow()
    }
  }

  return (
    <Dialog
      className="modal-dialog approval-dialog"
      labelledBy="approval-title"
      describedBy="approval-sentence"
      data-testid="approval-modal"
      data-tool={selected.tool}
      data-waiting={requests.length}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      // Escape denies the selected call; the dialog stays while calls wait.
      onClose={() => keysRef.current?.deny()}
      // The dialog itself, not its first control: Enter allows once rather than pressing a button.
      initialFocus={(dialog) => dialog}
    >
      <div className="modal approval">
        <ModalHeader
          icon={<ShieldIcon size={18} />}
          titleId="approval-title"
          title={
            several ? (
              `${requests.length} tool calls wait for you`
            ) : (
              <>
                Allow <span className="mono">{selected.tool}</span>?
              </>
            )
          }
          meta={
            <div className="approval__meta">
              {sessionTitle ? `In “${sessionTitle}”` : 'The model asks to use a tool'}
            </div>
          }
        />
        {several && (
          <div className="approval__rows-frame">
            <ul className="approval__rows" aria-label="Waiting calls">
              {requests.map((request) => {
                const current = request.approvalId === selected.approvalId
                const title = titleOf(request.sessionId)
                return (
                  <li
                    key={request.approvalId}
                    className={`approval__row${current ? ' approval__row--current' : ''}`}
                    data-testid="approval-row"
                    data-tool={request.tool}
                    aria-current={current}
                  >
                    <button
                      type="button"
                      className="approval__row-pick"
                      data-testid="approval-row-pick"
                      onClick={() => setChosenId(request.approvalId)}
                    >
                      <span className="mono approval__row-tool">{request.tool}</span>
                      <span className="approval__row-text">{request.sentence}</span>
                      {title && title !== sessionTitle && (
                        <span className="approval__row-session">In “{title}”</span>
                      )}
                    </button>
                    {answers.map(({ answer, tone, label, name }) => (
                      <Button
                        key={answer}
                        small
                        tone={tone}
                        data-testid={`approval-row-${answer}`}
                        aria-label={name(request.tool)}
                        disabled={respondingId !== null}
                        onClick={() => void respondToApproval(request.approvalId, answer, '')}
                      >
                        {label}
                      </Button>
                    ))}
                  </li>
                )
              })}
            </ul>
            <div className="approval__rows-all">
              {answers.map(({ answer, tone, label }) => (
                <Button
                  key={answer}
                  small
                  tone={tone}
                  data-testid={`approval-${answer}-all`}
                  disabled={respondingId !== null}
                  onClick={() =>
                    void respondToAll(
                      requests.map((r) => r.approvalId),
                      answer
                    )
                  }
                >
                  {label} all {requests.length}
                </Button>
              ))}
            </div>
          </div>
        )}
        <ApprovalRequestPanel key={selected.approvalId} request={selected} keysRef={keysRef} />
      </div>
    </Dialog>
  )
}
