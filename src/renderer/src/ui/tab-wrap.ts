const TAB_STOPS = [
  'button:not([disabled])',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'textarea:not([disabled])',
  'select:not([disabled])',
  'summary',
  '[tabindex]:not([tabindex="-1"])'
].join(', ')

/** Tab reaches a group of radio buttons once: at its checked one, or its first if none is. */
function radioStop(radio: HTMLInputElement, root: HTMLElement): boolean {
  if (radio.checked || !radio.name) return true
  const group = Array.from(root.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter(
    (other) => other.name === radio.name
  )
  return !group.some((other) => other.checked) && group[0] === radio
}

/** What Tab can reach inside `root`, in order; controls hidden in a closed section are not. */
function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(TAB_STOPS)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      element.checkVisibility() &&
      (!(element instanceof HTMLInputElement) ||
        element.type !== 'radio' ||
        radioStop(element, root))
  )
}

/**
 * A modal <dialog> makes the page behind it inert, but Chromium still lets Tab from its last
 * control (Shift+Tab from its first) leave for the browser's own interface, where the next key
 * lands on nothing. Wrapping round keeps the keyboard with the question being asked.
 */
export function wrapTab(event: KeyboardEvent, root: HTMLElement): void {
  const stops = tabStops(root)
  const first = stops[0]
  const last = stops[stops.length - 1]
  if (!first || !last) return
  const active = root.ownerDocument.activeElement
  if (event.shiftKey && (active === first || active === root)) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && active === last) {
    event.preventDefault()
    first.focus()
  }
}
