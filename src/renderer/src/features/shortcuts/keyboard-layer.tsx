import { useEffect, type JSX } from 'react'
import { openSettings } from '../../app/app-store'
import { leaveSettingsThen } from '../settings'
import { openFind } from '../find'
import { createSession } from '../sessions'
import { toggleSidebar } from '../../app/layout-store'
import { CommandPalette } from './command-palette'
import { closePalette, togglePalette } from './keys-store'
import { currentPlatform, matchShortcut, type ShortcutId } from './shortcut-match'
import { ShortcutsDialog } from './shortcuts-dialog'

/** A modal of someone else's (an approval, the folder trust question) owns the keyboard. */
function otherModalOpen(): boolean {
  // Modal only: a popover or an inline confirm shown as a dialog leaves the keys to the window.
  return Array.from(document.querySelectorAll('dialog:modal')).some(
    (element) => !element.hasAttribute('data-keys-dialog')
  )
}

function focusComposer(): void {
  const box = document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')
  if (!box) return
  box.focus()
  box.setSelectionRange(box.value.length, box.value.length)
}

function perform(id: ShortcutId): void {
  if (id === 'palette') return togglePalette()
  closePalette()
  switch (id) {
    // Settings cover the conversation: these leave them first, asking about unsaved changes.
    case 'new-session':
      return leaveSettingsThen(() => void createSession())
    case 'find':
      return leaveSettingsThen(openFind)
    case 'settings':
      return openSettings()
    case 'focus-composer':
      return leaveSettingsThen(focusComposer)
    case 'sidebar':
      return toggleSidebar()
  }
}

/**
 * The window's Ctrl/Cmd shortcuts, and the palette and shortcuts list they open. Keys are read
 * before anything else on the page sees them (capture), so Ctrl/Cmd+F is the app's find, not
 * the browser's, even from inside the message box.
 */
export function KeyboardLayer(): JSX.Element {
  useEffect(() => {
    const platform = currentPlatform()
    const onKey = (event: KeyboardEvent): void => {
      const id = matchShortcut(event, platform)
      if (!id || otherModalOpen()) return
      event.preventDefault()
      event.stopPropagation()
      perform(id)
    }
    window.addEventListener('keydown', onKey, { capture: true })
    return () => window.removeEventListener('keydown', onKey, { capture: true })
  }, [])
  return (
    <>
      <CommandPalette />
      <ShortcutsDialog />
    </>
  )
}
