import {
  useEffect,
  useRef,
  type ComponentPropsWithoutRef,
  type JSX,
  type MouseEvent,
  type ReactNode,
  type RefObject
} from 'react'
import { wrapTab } from './tab-wrap'
import './dialog.css'
import './dialog-frame.css'

/** A dialog is named by a heading inside it, or by a label when it shows none. */
type Name = { labelledBy: string; label?: never } | { label: string; labelledBy?: never }

type Owned =
  | 'open'
  | 'onClose'
  | 'onCancel'
  | 'role'
  | 'children'
  | 'aria-label'
  | 'aria-labelledby'
  | 'aria-describedby'
  | 'aria-modal'

export type DialogProps = Name &
  Omit<ComponentPropsWithoutRef<'dialog'>, Owned> & {
    /**
     * The dialog's way out: Escape, the browser's own close request, and with `closeOnBackdrop`
     * a click beside it. Whatever that means here (cancel, deny, stay); the dialog closes only
     * when its owner stops rendering it or sets `open` to false.
     */
    onClose: () => void
    /** Shown while true; a dialog that is rendered only while it is wanted leaves it out. */
    open?: boolean
    /** False: shown in place, leaving the page usable around it (a popover, an inline confirm). */
    modal?: boolean
    role?: 'dialog' | 'alertdialog'
    /** The id of the text that says what the dialog asks. */
    describedBy?: string
    /** What takes the focus on opening; without it, the first control does (the browser's choice). */
    initialFocus?:
      RefObject<HTMLElement | null> | ((dialog: HTMLDialogElement) => HTMLElement | null)
    closeOnBackdrop?: boolean
    /** Where the focus goes on closing when what had it before the dialog opened is gone. */
    returnFocus?: () => HTMLElement | null
    children: ReactNode
  }

/** Whether a press or click landed on the backdrop: on the dialog itself, outside its box. */
function beside(event: MouseEvent<HTMLDialogElement>): boolean {
  if (event.target !== event.currentTarget) return false
  const box = event.currentTarget.getBoundingClientRect()
  const { clientX: x, clientY: y } = event
  return x < box.left || x > box.right || y < box.top || y > box.bottom
}

/**
 * The one dialog of the window, on the native `<dialog>`: modal (`showModal`) unless told
 * otherwise, so the page behind is inert; Escape and the browser's close request call `onClose`
 * and go no further (elsewhere Escape stops the running turn); the focus comes back on closing
 * to what had it before, unless something else has taken it meanwhile.
 */
export function Dialog(props: DialogProps): JSX.Element {
  const {
    open = true,
    modal = true,
    onClose,
    role,
    label,
    labelledBy,
    describedBy,
    initialFocus,
    closeOnBackdrop = false,
    returnFocus,
    className,
    children,
    onKeyDown,
    onMouseDown,
    onClick,
    ...rest
  } = props
  const ref = useRef<HTMLDialogElement>(null)
  const pressedBeside = useRef(false)
  // Read when the dialog opens, from the render that opened it: a new arrow each render is no
  // reason to open it again.
  const focus = useRef({ initialFocus, returnFocus })
  useEffect(() => {
    focus.current = { initialFocus, returnFocus }
  })

  useEffect(() => {
    const dialog = ref.current
    if (!dialog || !open) return
    const page = dialog.ownerDocument
    const before = page.activeElement
    if (modal && !dialog.open) dialog.showModal()
    const { initialFocus: first, returnFocus: fallback } = focus.current
    const target = typeof first === 'function' ? first(dialog) : first?.current
    target?.focus()
    return () => {
      if (modal && dialog.open && dialog.isConnected) dialog.close()
      const active = page.activeElement
      if (active && active !== page.body && !dialog.contains(active)) return
      const back = before instanceof HTMLElement && before.isConnected ? before : fallback?.()
      back?.focus()
    }
  }, [open, modal])

  return (
    <dialog
      ref={ref}
      {...rest}
      className={modal ? className : ['inline-dialog', className].filter(Boolean).join(' ')}
      // A modal one is opened by showModal(); the attribute alone would show it non-modal.
      open={modal ? undefined : open}
      role={role}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={(event) => {
        onKeyDown?.(event)
        if (event.defaultPrevented || event.nativeEvent.isComposing) return
        if (event.key === 'Escape') {
          // Prevented here, the browser fires no cancel event: the one it fires after a second
          // Escape with no click between cannot be refused, and would close the dialog anyway.
          event.preventDefault()
          event.stopPropagation()
          onClose()
        } else if (event.key === 'Tab' && modal) {
          wrapTab(event.nativeEvent, event.currentTarget)
        }
      }}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClose={(event) => {
        // A close the owner did not ask for (a cancel the browser would not let be refused) is
        // undone: the dialog stays while its owner shows it.
        const dialog = event.currentTarget
        if (modal && open && dialog.isConnected && !dialog.open) dialog.showModal()
      }}
      onMouseDown={(event) => {
        onMouseDown?.(event)
        pressedBeside.current = beside(event)
      }}
      onClick={(event) => {
        onClick?.(event)
        // Pressed and let go beside it: a drag that started on the text is no click beside it.
        if (closeOnBackdrop && pressedBeside.current && beside(event)) onClose()
      }}
    >
      {children}
    </dialog>
  )
}
