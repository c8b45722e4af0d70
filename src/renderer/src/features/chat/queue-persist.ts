import { z } from 'zod'
import { initialQueueState, type QueueState, type SessionQueue } from './queue-reducer'

/**
 * Where the queues are kept between reloads. Session storage, not local storage: it belongs to
 * this one window (tab), so two windows on the same project never both send one queue.
 */
const STORAGE_KEY = 'mecatl.chat-queue.v1'

/** Said on a message that was on its way when the window reloaded. */
export const RELOADED_WHILE_SENDING =
  'the window reloaded while this was being sent, so it may have arrived: check the conversation, then Send now or Remove'

const savedSchema = z.object({
  sessions: z.record(
    z.string(),
    z.object({
      items: z.array(z.object({ id: z.string(), text: z.string(), error: z.string().nullable() })),
      inFlight: z.string().nullable(),
      sendNow: z.string().nullable(),
      editing: z.string().nullable()
    })
  )
})

/**
 * The queues saved before a reload, or none when nothing (valid) was saved. A message that was
 * on its way is kept with a sentence saying so, never resent blindly; edits and Send now end.
 */
export function restoreQueue(raw: string | null): QueueState {
  if (raw === null) return initialQueueState
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return initialQueueState
  }
  const saved = savedSchema.safeParse(parsed)
  if (!saved.success) return initialQueueState
  const sessions: Record<string, SessionQueue> = {}
  for (const [sessionId, queue] of Object.entries(saved.data.sessions)) {
    const items = queue.items
      .filter((item) => item.text.trim() !== '')
      .map((item) =>
        item.id === queue.inFlight ? { ...item, error: RELOADED_WHILE_SENDING } : item
      )
    if (items.length > 0)
      sessions[sessionId] = { items, inFlight: null, sendNow: null, editing: null }
  }
  return { sessions }
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    // A page without storage access (or a test without a DOM) keeps the queues in memory only.
    return null
  }
}

/** The queues this window had before it reloaded. */
export function loadQueue(): QueueState {
  return restoreQueue(storage()?.getItem(STORAGE_KEY) ?? null)
}

/** Saves the queues on every change; nothing is written while none is waiting. */
export function saveQueue(state: QueueState): void {
  const store = storage()
  if (!store) return
  try {
    if (Object.keys(state.sessions).length === 0) store.removeItem(STORAGE_KEY)
    else store.setItem(STORAGE_KEY, JSON.stringify(state))
  } catch {
    // Storage full or refused: the queue still works, it just would not outlive a reload.
  }
}
