import type { KeyboardEvent } from 'react'
import { lastUserEntry, startEditing } from './branch-actions'
import { useChat } from './chat-store'

/**
 * Up in an empty message box opens the last message for editing, as in a terminal's history;
 * never during an IME composition, with a modifier, or while a turn runs. True when it did.
 */
export function editLastOnUp(event: KeyboardEvent<HTMLTextAreaElement>, draft: string): boolean {
  if (event.key !== 'ArrowUp' || draft !== '' || event.nativeEvent.isComposing) return false
  if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false
  const { running, sending, entries } = useChat.getState().state
  if (running || sending) return false
  const last = lastUserEntry(entries)
  if (!last) return false
  event.preventDefault()
  startEditing(last.key)
  return true
}
