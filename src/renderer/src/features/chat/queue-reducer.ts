import type { TranscriptEntry } from './transcript-reducer'

/** A message typed while a turn ran, waiting for its turn. */
export interface QueuedMessage {
  id: string
  text: string
  /** Why the last try to send it failed; it stays queued (and holds the queue) until acted on. */
  error: string | null
}

/** One session's queue. */
export interface SessionQueue {
  items: QueuedMessage[]
  /** The message on its way to `session.send`: neither removed nor edited until it lands. */
  inFlight: string | null
  /** The message the person asked to send at once; it goes first when the session is idle. */
  sendNow: string | null
  /** The message being edited: nothing is sent while the person is changing the order's content. */
  editing: string | null
}

/** Queues by session id: switching sessions never loses or mixes them. */
export interface QueueState {
  sessions: Record<string, SessionQueue>
}

export type QueueAction =
  | { type: 'enqueue'; sessionId: string; id: string; text: string }
  | { type: 'remove'; sessionId: string; id: string }
  | { type: 'edit-start'; sessionId: string; id: string }
  | { type: 'edit-cancel'; sessionId: string }
  | { type: 'edit-save'; sessionId: string; id: string; text: string }
  | { type: 'send-now'; sessionId: string; id: string }
  | { type: 'take'; sessionId: string; id: string }
  | { type: 'sent'; sessionId: string; id: string }
  | { type: 'failed'; sessionId: string; id: string; error: string }

export const initialQueueState: QueueState = { sessions: {} }

const emptyQueue: SessionQueue = { items: [], inFlight: null, sendNow: null, editing: null }

/** How the session's last turn ended, as far as sending the queue goes. */
export type TurnOutcome = 'ok' | 'stopped' | 'failed'

/** Why the queue waits although the session is idle, or null when it does not. */
export type QueueHold = 'stopped' | 'failed' | 'error' | 'editing'

function withQueue(state: QueueState, sessionId: string, queue: SessionQueue): QueueState {
  const sessions = { ...state.sessions }
  // An empty queue is forgotten, so the state only ever holds sessions with something waiting.
  if (queue.items.length === 0) delete sessions[sessionId]
  else sessions[sessionId] = queue
  return { sessions }
}

function mapItem(
  queue: SessionQueue,
  id: string,
  change: (item: QueuedMessage) => QueuedMessage
): SessionQueue {
  return { ...queue, items: queue.items.map((item) => (item.id === id ? change(item) : item)) }
}

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  const queue = state.sessions[action.sessionId]
  if (action.type === 'enqueue') {
    const current = queue ?? emptyQueue
    if (!action.text.trim() || current.items.some((item) => item.id === action.id)) return state
    const item = { id: action.id, text: action.text, error: null }
    return withQueue(state, action.sessionId, { ...current, items: [...current.items, item] })
  }
  if (!queue) return state
  if (action.type === 'edit-cancel') {
    return queue.editing === null
      ? state
      : withQueue(state, action.sessionId, { ...queue, editing: null })
  }
  const held = queue.items.some((item) => item.id === action.id)
  if (!held) return state
  const busy = queue.inFlight === action.id
  switch (action.type) {
    case 'remove':
      if (busy) return state
      return withQueue(state, action.sessionId, {
        items: queue.items.filter((item) => item.id !== action.id),
        inFlight: queue.inFlight,
        sendNow: queue.sendNow === action.id ? null : queue.sendNow,
        editing: queue.editing === action.id ? null : queue.editing
      })
    case 'edit-start':
      if (busy) return state
      return withQueue(state, action.sessionId, { ...queue, editing: action.id })
    case 'edit-save':
      if (busy || queue.editing !== action.id || !action.text.trim()) return state
      return withQueue(state, action.sessionId, {
        ...mapItem(queue, action.id, (item) => ({ ...item, text: action.text, error: null })),
        editing: null
      })
    case 'send-now':
      if (busy) return state
      return withQueue(state, action.sessionId, {
        ...mapItem(queue, action.id, (item) => ({ ...item, error: null })),
        sendNow: action.id,
        editing: queue.editing === action.id ? null : queue.editing
      })
    case 'take':
      if (queue.inFlight !== null) return state
      return withQueue(state, action.sessionId, {
        ...mapItem(queue, action.id, (item) => ({ ...item, error: null })),
        inFlight: action.id,
        sendNow: queue.sendNow === action.id ? null : queue.sendNow
      })
    case 'sent':
      if (!busy) return state
      return withQueue(state, action.sessionId, {
        ...queue,
        items: queue.items.filter((item) => item.id !== action.id),
        inFlight: null
      })
    case 'failed':
      if (!busy) return state
      return withQueue(state, action.sessionId, {
        ...mapItem(queue, action.id, (item) => ({ ...item, error: action.error })),
        inFlight: null,
        sendNow: null
      })
  }
}

/**
 * How a turn that ended so ended. A turn the person stopped (or the app lost) and a turn that
 * failed hold the queue: what was queued assumed the turn would do its work.
 */
export function endOutcome(stopReason: string, error: string | null): TurnOutcome {
  if (error) return 'failed'
  // The same reading as the transcript's "Stopped by you": a provider's `stop` or
  // `stop_sequence` is a reply that finished, not a person stopping it.
  return /cancel|abort|stop(ped)?_by_user|interrupt/i.test(stopReason) ? 'stopped' : 'ok'
}

/** How the newest finished turn in the transcript ended ('ok' when none has). */
export function turnOutcome(entries: readonly TranscriptEntry[]): TurnOutcome {
  for (let i = entries.length - 1; i >= 0; i--) {
    const item = entries[i]?.item
    if (item?.kind === 'turn-end') return endOutcome(item.stopReason, item.error)
  }
  return 'ok'
}

/** Why an idle session's queue is not being sent, or null when it is (or is empty). */
export function queueHold(queue: SessionQueue | undefined, outcome: TurnOutcome): QueueHold | null {
  if (!queue || queue.items.length === 0 || queue.sendNow !== null) return null
  if (queue.editing !== null) return 'editing'
  if (queue.items[0]?.error) return 'error'
  return outcome === 'ok' ? null : outcome
}

/**
 * The message to send now, or null. Only an idle session sends (a running turn, including one
 * waiting on an approval or a question, keeps its queue), and only one message at a time.
 */
export function nextToSend(
  queue: SessionQueue | undefined,
  idle: boolean,
  outcome: TurnOutcome
): QueuedMessage | null {
  if (!queue || !idle || queue.inFlight !== null) return null
  if (queue.sendNow !== null) return queue.items.find((item) => item.id === queue.sendNow) ?? null
  if (queueHold(queue, outcome) !== null) return null
  return queue.items[0] ?? null
}
