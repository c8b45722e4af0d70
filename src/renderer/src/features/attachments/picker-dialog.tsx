import type { JSX, ReactNode } from 'react'
import { CloseIcon } from '../../lib/icons'
import { Dialog } from '../../ui/dialog'

interface Props {
  /** The button that opens it: its icon, name and test id. */
  icon: ReactNode
  label: string
  buttonTestId: string
  disabled: boolean
  /** The dialog's heading, also its accessible name and the button's tooltip. */
  title: string
  testId: string
  open: boolean
  onOpen: () => void
  onClose: () => void
  children: ReactNode
}

/**
 * A message box attach button and the modal list it opens (Attach file, Attach resource);
 * Escape closes it, and `open` is the one source of truth.
 */
export function PickerDialog(props: Props): JSX.Element {
  const { open, onClose } = props
  return (
    <>
      <button
        type="button"
        className="attach-button"
        data-testid={props.buttonTestId}
        onClick={props.onOpen}
        disabled={props.disabled}
        title={props.title}
        aria-label={props.label}
      >
        {props.icon}
      </button>
      <Dialog
        open={open}
        className="file-picker"
        data-testid={props.testId}
        label={props.title}
        onClose={onClose}
      >
        <div className="file-picker__head">
          <h2 className="file-picker__title">{props.title}</h2>
          <button type="button" className="attach-button" aria-label="Close" onClick={onClose}>
            <CloseIcon size={14} />
          </button>
        </div>
        {props.children}
      </Dialog>
    </>
  )
}
