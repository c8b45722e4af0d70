import { create } from 'zustand'
import { messageSizeProblem } from '../../../../shared/contract/message-size'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { loadSession, sendMessage, useChat } from './chat-store'
import type { TranscriptEntry } from './transcript-reducer'

/** What Continue sends: the model carries on from what it had, told so plainly. */
export const CONTINUE_TEXT = 'Continue from where you stopped.'

/** The user message being edited in place (its key), and why the last edit failed. */
export const useEditing = create<{ key: string | null; error: string | null }>(() => ({
  key: null,
  error: null
}))

/** Opens the editor on a user message (Edit, or Up in an empty box for the last one). */
export function startEditing(key: string): void {
  useEditing.setState({ key, error: null })
}

export function stopEditing(): void {
  useEditing.setState({ key: null, error: null })
}

/**
 * Reloads the session around a call that changes which branch is shown: events that arrive
 * while the call runs are dropped (the fresh snapshot holds them), as a reload does, so the
 * old branch never gets the new branch's items appended to it.
 */
async function reshaping<T>(sessionId: string, change: () => Promise<T>): Promise<T> {
  useChat.getState().dispatch({ type: 'select', sessionId, reload: true })
  try {
    return await change()
  } finally {
    await loadSession(sessionId, true)
  }
}

/**
 * Sends `text` as a new version of the user message `itemKey` (a new branch from before it).
 * Resolves null once sent, or the sentence saying why not; the editor stays open on a failure.
 */
export async function resendFrom(itemKey: string, text: string): Promise<string | null> {
  const { sessionId, running } = useChat.getState().state
  if (!sessionId) return 'no session is open'
  if (running) return 'wait for the turn to end, or stop it, before sending this again'
  const tooLarge = messageSizeProblem(text)
  if (tooLarge) return tooLarge
  try {
    await reshaping(sessionId, () => call('session.edit', { sessionId, itemKey, text }))
    return null
  } catch (error) {
    return errorMessage(error)
  }
}

/** Shows another version of a message, and the conversation that followed it. */
export async function showBranch(itemKey: string): Promise<string | null> {
  const { sessionId } = useChat.getState().state
  if (!sessionId) return 'no session is open'
  try {
    await reshaping(sessionId, () => call('session.selectBranch', { sessionId, itemKey }))
    return null
  } catch (error) {
    return errorMessage(error)
  }
}

/** The newest user message shown, which Regenerate and Retry send again. */
export function lastUserEntry(entries: readonly TranscriptEntry[]): TranscriptEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]
    if (entry?.item.kind === 'user') return entry
  }
  return null
}

/** The same request again, as a new version of the last message (the old one is kept). */
export async function sendAgain(): Promise<string | null> {
  const last = lastUserEntry(useChat.getState().state.entries)
  if (last?.item.kind !== 'user') return 'there is no message to send again'
  return resendFrom(last.key, last.item.text)
}

/** Asks the model to carry on from what it had. */
export async function continueTurn(): Promise<boolean> {
  return sendMessage(CONTINUE_TEXT)
}
