import { useCallback, useId, useRef, useState, type JSX } from 'react'
import { useDismiss } from '../../lib/use-dismiss'
import type { SessionSummary } from '../../../../shared/domain'
import { ShieldIcon } from '../../lib/icons'
import { Dialog } from '../../ui/dialog'
import { useSettingsView } from '../settings'
import { describeTaint } from './safety-labels'
import { sandboxWarning, useSandboxStatus } from '../permissions'
import './safety.css'

function Fact({ label, on, testId }: { label: string; on: boolean; testId: string }): JSX.Element {
  return (
    <li className="taint-pop__fact" data-testid={testId} data-on={on}>
      <span className={`taint-pop__dot${on ? ' taint-pop__dot--on' : ''}`} />
      {label}: <strong>{on ? 'yes' : 'no'}</strong>
    </li>
  )
}

/**
 * What has entered the conversation (private data, untrusted input) and whether sends are now
 * refused; a click opens the explanation. Follows the session's summary, so it updates live.
 */
export function TaintBadge({ session }: { session: SessionSummary | null }): JSX.Element | null {
  const blockAfterPrivate = useSettingsView(
    (s) => s.draft.values.block_sends_after_private === true
  )
  const [open, setOpen] = useState(false)
  const close = useCallback(() => setOpen(false), [])
  const root = useRef<HTMLDivElement>(null)
  const popId = useId()
  const sandbox = useSandboxStatus()
  const warning = sandboxWarning(sandbox)

  useDismiss(open, close, root)

  if (!session) return null
  const taint = session.taint
  const view = describeTaint(taint, blockAfterPrivate, session.folderTrust === 'untrusted')
  return (
    <div className="taint" ref={root}>
      <button
        type="button"
        className={`taint-badge taint-badge--${view.level}`}
        data-testid="taint-badge"
        data-level={view.level}
        aria-expanded={open}
        aria-controls={popId}
        title={view.detail}
        onClick={() => setOpen((v) => !v)}
      >
        <ShieldIcon size={13} />
        <span className="taint-badge__label">{view.label}</span>
        {warning && (
          <span
            className="taint-badge__warning"
            data-testid="sandbox-warning"
            title={sandbox?.text}
          >
            · {warning}
          </span>
        )}
      </button>
      {/* Not modal: an explanation to glance at, put away by a click elsewhere or Escape. */}
      {open && (
        <Dialog
          modal={false}
          className="taint-pop"
          id={popId}
          label="What this conversation holds"
          onClose={close}
        >
          <div className="taint-pop__title">What this conversation holds</div>
          <ul className="taint-pop__facts">
            <Fact label="Private data" on={taint?.privateData ?? false} testId="taint-private" />
            <Fact
              label="Untrusted input"
              on={taint?.untrustedInput ?? false}
              testId="taint-untrusted"
            />
          </ul>
          <p className="taint-pop__detail">{view.detail}</p>
          {sandbox && <p className="taint-pop__detail">Shell: {sandbox.text}</p>}
          <p
            className={`taint-pop__sends${view.sendsRefused ? ' taint-pop__sends--refused' : ''}`}
            data-testid="taint-sends"
          >
            {view.sendsRefused
              ? 'Sends are refused for the rest of this session.'
              : 'Sends are allowed (as your approval mode and rules say).'}
          </p>
        </Dialog>
      )}
    </div>
  )
}
