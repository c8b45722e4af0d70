/** What a person is told when nothing could reach the clipboard. */
export const COPY_FAILED =
  'Could not copy: this window has no clipboard access. Select the text and press Ctrl+C (⌘C on a Mac).'

/** The pre-Clipboard-API way: select the text in a hidden field and ask the page to copy it. */
function copyBySelection(text: string): boolean {
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  field.style.position = 'fixed'
  field.style.opacity = '0'
  field.style.pointerEvents = 'none'
  const previous = document.activeElement
  document.body.append(field)
  field.select()
  let copied: boolean
  try {
    copied = document.execCommand('copy')
  } catch {
    copied = false
  }
  field.remove()
  // The button that asked keeps focus, so keyboard users stay where they were.
  if (previous instanceof HTMLElement) previous.focus()
  return copied
}

/**
 * Puts `text` on the clipboard. Uses the Clipboard API where the page has it (Electron, and
 * browser mode on 127.0.0.1, a secure context), falls back to a selection copy where it is
 * missing or refused, and answers with the sentence to show when both fail (null: copied).
 */
export async function copyText(text: string): Promise<string | null> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      await clipboard.writeText(text)
      return null
    } catch {
      // Refused (no permission, the window lost focus): the older way may still work.
    }
  }
  return copyBySelection(text) ? null : COPY_FAILED
}
