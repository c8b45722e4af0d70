import type { JSX } from 'react'
import { RewindIcon } from '../../lib/icons'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError } from '../../ui/form-error'
import { ModalFooter, ModalHeader } from '../../ui/modal-parts'
import { restoreVerb } from './change-words'
import {
  blockedBecause,
  restoresFiles,
  rewindsConversation,
  type RestoreRequest,
  type RewindScope
} from './restore-reducer'
import { closeRestore, confirmRestore, useRestore } from './restore-store'
import './checkpoints.css'

const titles: Record<RestoreRequest['kind'], string> = {
  rewind: 'Rewind to before this message',
  revert: 'Revert this change',
  undo: 'Undo restore'
}

const scopes: { scope: RewindScope; label: string; hint: string }[] = [
  { scope: 'both', label: 'Files and conversation', hint: 'Both go back to before the message.' },
  { scope: 'files', label: 'Files only', hint: 'The conversation stays as it is.' },
  {
    scope: 'conversation',
    label: 'Conversation only',
    hint: 'The files stay as they are now.'
  }
]

/** Removing a file the agent made reads as red; bringing one back as green. */
const verbTones = { created: 'red', deleted: 'green', changed: 'blue' } as const

function subject(request: RestoreRequest): string {
  switch (request.kind) {
    case 'rewind':
      return request.text
    case 'revert':
      return `${request.tool}: ${request.files.join(', ')}`
    case 'undo':
      return request.label
  }
}

/**
 * Rewind, Revert and Undo restore: what will be put back, what it would overwrite that changed
 * outside the agent (replaced only when confirmed), and the jobs still running that may change
 * files again. The folder as it is now is checkpointed first, so this too can be undone.
 */
export function RestoreDialog(): JSX.Element | null {
  const state = useRestore((s) => s.state)
  const { request, plan, error, scope, replaceChanged, busy } = state
  const dispatch = useRestore((s) => s.dispatch)

  if (!request) return null
  const files = restoresFiles(state)
  const blocked = blockedBecause(state)
  return (
    <Dialog
      className="modal-dialog restore-dialog"
      labelledBy="restore-title"
      data-testid="restore-dialog"
      onClose={() => {
        if (!busy) closeRestore()
      }}
    >
      <div className="modal approval">
        <ModalHeader
          icon={<RewindIcon size={18} />}
          titleId="restore-title"
          title={titles[request.kind]}
          meta={
            <div className="approval__meta restore__subject" title={subject(request)}>
              {subject(request)}
            </div>
          }
        />
        <div className="approval__body">
          {request.kind === 'rewind' && (
            <fieldset className="restore__scopes" disabled={busy}>
              <legend className="approval__label">What goes back</legend>
              {scopes.map((option) => (
                <label key={option.scope} className="restore__scope">
                  <input
                    type="radio"
                    name="restore-scope"
                    value={option.scope}
                    checked={scope === option.scope}
                    disabled={option.scope !== 'conversation' && plan?.changes.length === 0}
                    data-testid={`restore-scope-${option.scope}`}
                    onChange={() => dispatch({ type: 'scope', scope: option.scope })}
                  />
                  <span>
                    <strong>{option.label}</strong> <span className="muted">{option.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {!plan && !error && <p className="muted">Looking at the files…</p>}
          {plan && plan.changes.length === 0 && (
            <p className="approval__sentence" data-testid="restore-nothing">
              {request.kind === 'rewind'
                ? 'The agent has changed no files since this message.'
                : 'These files are already as they were.'}
            </p>
          )}
          {plan && files && (
            <div>
              <div className="approval__label">
                {plan.changes.length === 1 ? '1 file' : `${plan.changes.length} files`} put back
              </div>
              <ul className="restore__files" data-testid="restore-files">
                {plan.changes.map((change) => (
                  <li key={change.path} className="restore__file">
                    <span className="mono restore__path">{change.path}</span>
                    <span className={`badge restore__verb badge--${verbTones[change.change]}`}>
                      {restoreVerb(change.change)}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {plan && files && plan.conflicts.length > 0 && (
            <div className="notice notice--warn restore__conflicts" data-testid="restore-conflicts">
              <p>
                Changed since the agent’s last checkpoint, by you, an editor or a running command.
                Restoring replaces these changes:
              </p>
              <ul>
                {plan.conflicts.map((file) => (
                  <li key={file} className="mono">
                    {file}
                  </li>
                ))}
              </ul>
              <label className="restore__confirm">
                <input
                  type="checkbox"
                  checked={replaceChanged}
                  data-testid="restore-replace-changed"
                  onChange={(event) =>
                    dispatch({ type: 'replace-changed', replace: event.target.checked })
                  }
                />
                Replace my changes to {plan.conflicts.length === 1 ? 'this file' : 'these files'}
              </label>
            </div>
          )}
          {plan && files && plan.runningJobs.length > 0 && (
            <div className="notice notice--warn" data-testid="restore-running-jobs">
              Still running in this folder, and may change files again:{' '}
              {plan.runningJobs.map((job, i) => (
                <span key={job.id}>
                  {i > 0 && ', '}
                  <span className="mono">{job.command}</span> ({job.id})
                </span>
              ))}
              . Stop it in the job monitor first if it writes to these files.
            </div>
          )}
          {plan && files && plan.notCovered.length > 0 && (
            <div className="restore__not-covered" data-testid="restore-not-covered">
              <div className="approval__label">Not covered: left as they are</div>
              <ul>
                {plan.notCovered.map((item) => (
                  <li key={item.path}>
                    <span className="mono">{item.path}</span>{' '}
                    <span className="muted">{item.why}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {rewindsConversation(state) && (
            <p className="field__hint">
              The conversation goes back to before this message in a new session (this one is kept),
              with the message in the box to edit and send again.
            </p>
          )}
          {files && (
            <p className="field__hint">
              The files as they are now are checkpointed first: Undo restore brings them back.
            </p>
          )}
          <FormError error={error} testId="restore-error" />
        </div>
        <ModalFooter hint={blocked ?? ''}>
          <Button disabled={busy} onClick={closeRestore}>
            Cancel
          </Button>
          <Button
            tone="primary"
            data-testid="restore-confirm"
            disabled={blocked !== null}
            title={blocked ?? undefined}
            onClick={() => void confirmRestore()}
          >
            {request.kind === 'undo'
              ? 'Undo restore'
              : request.kind === 'revert'
                ? 'Revert'
                : 'Rewind'}
          </Button>
        </ModalFooter>
      </div>
    </Dialog>
  )
}
