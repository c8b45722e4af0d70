import { useRef, type JSX } from 'react'
import { ltrPath } from '../../lib/format'
import { ShieldIcon } from '../../lib/icons'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError } from '../../ui/form-error'
import { ModalFooter, ModalHeader } from '../../ui/modal-parts'
import { answerTrust, closeTrustDialog, useTrust } from './trust-store'
import './trust.css'

/**
 * "Trust the authors of this folder?": asked the first time a folder is opened, before its
 * first session is made, and again when the person changes the answer from the folder's header.
 * A native modal dialog keeps focus inside; Escape moves focus to "Don't trust" on the first
 * question (no key press answers it by accident) and cancels a change.
 */
export function TrustDialog(): JSX.Element | null {
  const { folder, trust, dialog, saving, error } = useTrust((s) => s.state)
  const distrust = useRef<HTMLButtonElement>(null)
  const open = dialog !== 'closed' && folder !== null

  if (!open) return null
  const changing = dialog === 'change'
  return (
    <Dialog
      className="modal-dialog"
      labelledBy="folder-trust-title"
      data-testid="folder-trust-dialog"
      onClose={() => {
        if (changing) closeTrustDialog()
        else distrust.current?.focus()
      }}
      initialFocus={changing ? undefined : distrust}
    >
      <div className="modal approval">
        <ModalHeader
          icon={<ShieldIcon size={18} />}
          titleId="folder-trust-title"
          title="Trust the authors of this folder?"
          meta={
            <div className="approval__meta mono" title={folder}>
              {ltrPath(folder)}
            </div>
          }
        />
        <div className="approval__body">
          <p className="approval__sentence">
            A folder’s README, docs, issues and code comments are written by whoever made it. Text
            in them can try to steer the model, as a web page can. Trust a folder only if you trust
            where it came from, such as a project of your own.
          </p>
          <div className="trust-choice" data-testid="folder-trust-means-trusted">
            <div className="approval__label">Trust the authors</div>
            <p>
              What is read here counts as your own private files. Sends run as your approval mode
              and rules allow.
            </p>
          </div>
          <div className="trust-choice" data-testid="folder-trust-means-untrusted">
            <div className="approval__label">Don’t trust</div>
            <p>
              What is read here counts as untrusted input. Once a conversation has read a file,
              tools that send to a place the model chooses (WebFetch, a Shell that is not confined)
              are refused for the rest of that session. Reading, editing and a confined Shell with
              no network keep working.
            </p>
          </div>
          {changing && trust !== null && (
            <p className="field__hint" data-testid="folder-trust-now">
              Now: {trust === 'trusted' ? 'trusted' : 'not trusted'}. Not trusting applies to open
              sessions at once; trusting applies from the next session.
            </p>
          )}
          <FormError error={error} />
        </div>
        <ModalFooter hint="Remembered for this folder">
          {changing && <Button onClick={closeTrustDialog}>Cancel</Button>}
          <Button
            ref={distrust}
            data-testid="folder-trust-no"
            disabled={saving}
            onClick={() => void answerTrust('untrusted')}
          >
            Don’t trust
          </Button>
          <Button
            tone="primary"
            data-testid="folder-trust-yes"
            disabled={saving}
            onClick={() => void answerTrust('trusted')}
          >
            Trust the authors
          </Button>
        </ModalFooter>
      </div>
    </Dialog>
  )
}
