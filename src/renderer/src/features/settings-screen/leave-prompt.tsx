import { useEffect, useRef, useState, type JSX } from 'react'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { setLeaveGuard } from '../settings'
import './leave-prompt.css'

/** What the person chose when asked about leaving with unsaved changes. */
export type LeaveChoice = 'save' | 'discard' | 'stay'

/**
 * Asks before Settings are left with unsaved changes: save them and leave, leave without them,
 * or stay. A native modal `<dialog>`: focus is trapped while it is open and Escape means Stay.
 */
export function LeavePrompt({
  open,
  saving,
  onChoose
}: {
  open: boolean
  saving: boolean
  onChoose: (choice: LeaveChoice) => void
}): JSX.Element {
  return (
    // Opening focuses the first button, Stay: Enter pressed by habit loses nothing.
    <Dialog
      open={open}
      className="leave-prompt"
      labelledBy="leave-prompt-title"
      describedBy="leave-prompt-text"
      data-testid="leave-prompt"
      onClose={() => onChoose('stay')}
    >
      <h2 id="leave-prompt-title" className="leave-prompt__title">
        Leave Settings with unsaved changes?
      </h2>
      <p id="leave-prompt-text" className="leave-prompt__text">
        Your changes are not saved yet. Save them now, or leave and lose them.
      </p>
      <div className="leave-prompt__actions">
        <Button data-testid="leave-prompt-stay" onClick={() => onChoose('stay')}>
          Stay
        </Button>
        <Button
          tone="danger-outline"
          data-testid="leave-prompt-discard"
          onClick={() => onChoose('discard')}
        >
          Discard and leave
        </Button>
        <Button
          tone="primary"
          data-testid="leave-prompt-save"
          disabled={saving}
          onClick={() => onChoose('save')}
        >
          {saving ? 'Saving…' : 'Save and leave'}
        </Button>
      </div>
    </Dialog>
  )
}

/**
 * Guards leaving Settings: `leave()` runs at once when nothing is pending, else opens the prompt.
 * It is also the guard of every other way out (shortcuts, palette: see leave-guard.ts), which
 * pass their own `leave`. While edits are pending, closing the window or tab asks too (the
 * browser's own question; Electron fires the same `beforeunload` when its window closes).
 */
export function useLeaveGuard(
  dirty: boolean,
  leave: () => void,
  save: () => Promise<boolean>,
  discard: () => Promise<void>
): { request: () => void; prompt: JSX.Element } {
  const [asking, setAsking] = useState(false)
  const [saving, setSaving] = useState(false)
  // The way out the person took, run once they chose to leave.
  const exit = useRef(leave)
  const request = (then: () => void = leave): void => {
    if (!dirty) return then()
    exit.current = then
    setAsking(true)
  }
  // Registered again on every render, so the guard always sees whether edits are pending now.
  useEffect(() => {
    setLeaveGuard(request)
    return () => setLeaveGuard(null)
  })
  useEffect(() => {
    if (!dirty) return
    const ask = (event: BeforeUnloadEvent): void => {
      event.preventDefault()
      // Older engines only ask when a value is set.
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', ask)
    return () => window.removeEventListener('beforeunload', ask)
  }, [dirty])
  const choose = (choice: LeaveChoice): void => {
    if (choice === 'stay') return setAsking(false)
    if (choice === 'discard') {
      setAsking(false)
      void discard().then(() => exit.current())
      return
    }
    setSaving(true)
    void save().then((saved) => {
      setSaving(false)
      setAsking(false)
      // A save the checks refused stays on the page, with the issues beside the fields.
      if (saved) exit.current()
    })
  }
  return {
    request: () => request(),
    prompt: <LeavePrompt open={asking} saving={saving} onChoose={choose} />
  }
}
