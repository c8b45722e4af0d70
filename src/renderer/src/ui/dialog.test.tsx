// @vitest-environment happy-dom
import { act, createRef, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearPage, show, unmount } from '../../../../testing/dom/live-dom'
import { Dialog, type DialogProps } from './dialog'

afterEach(() => {
  clearPage()
  vi.restoreAllMocks()
})

function theDialog(): HTMLDialogElement {
  const dialog = document.querySelector('dialog')
  if (!dialog) throw new Error('no dialog on the page')
  return dialog
}

function button(name: string): HTMLButtonElement {
  const found = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === name)
  if (!found) throw new Error(`no button ${name}`)
  return found
}

function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
  act(() => {
    target.dispatchEvent(event)
  })
  return event
}

function mouse(target: Element, type: 'mousedown' | 'click', at = { x: 5, y: 5 }): void {
  const init = { bubbles: true, cancelable: true, clientX: at.x, clientY: at.y }
  act(() => {
    target.dispatchEvent(new MouseEvent(type, init))
  })
}

function Question(props: Omit<DialogProps, 'label' | 'labelledBy' | 'children'>): ReactNode {
  return (
    <Dialog labelledBy="question-title" describedBy="question-text" {...props}>
      <h2 id="question-title">Leave?</h2>
      <p id="question-text">Your changes are not saved.</p>
      <button type="button">Stay</button>
      <button type="button">Leave</button>
    </Dialog>
  )
}

describe('Dialog', () => {
  it('opens modal, named and described by its own text', () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal')
    const showInPlace = vi.spyOn(HTMLDialogElement.prototype, 'show')
    show(<Question onClose={() => {}} />)
    const dialog = theDialog()
    expect(showModal).toHaveBeenCalledTimes(1)
    expect(showInPlace).not.toHaveBeenCalled()
    expect(dialog.open).toBe(true)
    expect(dialog.getAttribute('aria-labelledby')).toBe('question-title')
    expect(dialog.getAttribute('aria-describedby')).toBe('question-text')
    expect(dialog.hasAttribute('role')).toBe(false)
  })

  it('takes the alertdialog role and a label when asked', () => {
    show(
      <Dialog label="Confirm" role="alertdialog" onClose={() => {}}>
        <p>Forget it?</p>
      </Dialog>
    )
    expect(theDialog().getAttribute('role')).toBe('alertdialog')
    expect(theDialog().getAttribute('aria-label')).toBe('Confirm')
  })

  it('calls onClose on Escape, which goes no further and fires no cancel of its own', () => {
    const onClose = vi.fn()
    const windowKeys = vi.fn()
    window.addEventListener('keydown', windowKeys)
    show(<Question onClose={onClose} />)
    const escape = press(button('Leave'), 'Escape')
    window.removeEventListener('keydown', windowKeys)
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(escape.defaultPrevented).toBe(true)
    expect(windowKeys).not.toHaveBeenCalled()
    // The owner decides: still shown until it stops rendering the dialog.
    expect(theDialog().open).toBe(true)
  })

  it('leaves Escape alone while an input method composes, or when a control inside took it', () => {
    const onClose = vi.fn()
    show(<Question onClose={onClose} />)
    press(button('Stay'), 'Escape', { isComposing: true })
    const taken = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    taken.preventDefault()
    act(() => {
      button('Stay').dispatchEvent(taken)
    })
    expect(onClose).not.toHaveBeenCalled()
  })

  it('refuses the browser’s cancel and calls onClose instead', () => {
    const onClose = vi.fn()
    show(<Question onClose={onClose} />)
    const cancel = new Event('cancel', { cancelable: true })
    act(() => {
      theDialog().dispatchEvent(cancel)
    })
    expect(cancel.defaultPrevented).toBe(true)
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('opens again after a close its owner did not ask for', () => {
    show(<Question onClose={() => {}} />)
    act(() => theDialog().close())
    expect(theDialog().open).toBe(true)
  })

  it('closes when its owner sets open to false, and opens again when set back', () => {
    const onClose = vi.fn()
    show(<Question open onClose={onClose} />)
    show(<Question open={false} onClose={onClose} />)
    expect(theDialog().open).toBe(false)
    show(<Question open onClose={onClose} />)
    expect(theDialog().open).toBe(true)
    expect(onClose).not.toHaveBeenCalled()
  })

  it('focuses what it is told to, and gives the focus back on closing', () => {
    const outside = document.createElement('button')
    document.body.append(outside)
    outside.focus()
    show(<Question onClose={() => {}} initialFocus={() => button('Leave')} />)
    expect(document.activeElement).toBe(button('Leave'))
    unmount()
    expect(document.activeElement).toBe(outside)

    const stay = createRef<HTMLButtonElement>()
    show(
      <Dialog label="Leave" onClose={() => {}} initialFocus={stay}>
        <button type="button">Leave</button>
        <button type="button" ref={stay}>
          Stay
        </button>
      </Dialog>
    )
    expect(document.activeElement).toBe(stay.current)
    show(<p>Closed</p>)
    expect(document.activeElement).toBe(outside)
  })

  it('leaves the focus where something else put it, and falls back when the old one is gone', () => {
    const before = document.createElement('button')
    const elsewhere = document.createElement('input')
    const fallback = document.createElement('textarea')
    document.body.append(before, elsewhere, fallback)
    before.focus()
    show(<Question onClose={() => {}} initialFocus={() => button('Stay')} />)
    elsewhere.focus()
    unmount()
    expect(document.activeElement).toBe(elsewhere)

    before.focus()
    show(<Question onClose={() => {}} returnFocus={() => fallback} />)
    button('Stay').focus()
    before.remove()
    unmount()
    expect(document.activeElement).toBe(fallback)
  })

  it('keeps Tab inside: from the last control to the first, and back with Shift', () => {
    show(<Question onClose={() => {}} />)
    button('Leave').focus()
    const forward = press(button('Leave'), 'Tab')
    expect(forward.defaultPrevented).toBe(true)
    expect(document.activeElement).toBe(button('Stay'))
    const back = press(button('Stay'), 'Tab', { shiftKey: true })
    expect(back.defaultPrevented).toBe(true)
    expect(document.activeElement).toBe(button('Leave'))
    // Between two controls Tab is the browser's own.
    expect(press(button('Leave'), 'Tab', { shiftKey: true }).defaultPrevented).toBe(false)
  })

  it('closes on a click beside it only when asked, and not for a drag that began inside', () => {
    const onClose = vi.fn()
    show(<Question onClose={onClose} closeOnBackdrop />)
    const dialog = theDialog()
    vi.spyOn(dialog, 'getBoundingClientRect').mockReturnValue(new DOMRect(100, 100, 400, 300))
    mouse(button('Stay'), 'mousedown', { x: 150, y: 150 })
    mouse(dialog, 'click', { x: 20, y: 20 })
    expect(onClose).not.toHaveBeenCalled()
    mouse(dialog, 'mousedown', { x: 200, y: 150 })
    mouse(dialog, 'click', { x: 200, y: 150 })
    expect(onClose).not.toHaveBeenCalled()
    mouse(dialog, 'mousedown', { x: 20, y: 20 })
    mouse(dialog, 'click', { x: 20, y: 20 })
    expect(onClose).toHaveBeenCalledTimes(1)

    const stays = vi.fn()
    show(<Question onClose={stays} />)
    mouse(theDialog(), 'mousedown', { x: 20, y: 20 })
    mouse(theDialog(), 'click', { x: 20, y: 20 })
    expect(stays).not.toHaveBeenCalled()
  })

  it('shows in place when not modal: no showModal, no Tab wrapping, Escape still closes', () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal')
    const onClose = vi.fn()
    show(<Question modal={false} className="memory-confirm" onClose={onClose} />)
    const dialog = theDialog()
    expect(showModal).not.toHaveBeenCalled()
    expect(dialog.open).toBe(true)
    expect(dialog.className).toBe('inline-dialog memory-confirm')
    button('Leave').focus()
    expect(press(button('Leave'), 'Tab').defaultPrevented).toBe(false)
    press(button('Leave'), 'Escape')
    expect(onClose).toHaveBeenCalledTimes(1)
    show(<Question modal={false} open={false} onClose={onClose} />)
    expect(theDialog().open).toBe(false)
  })
})
