import type { AnyEvent } from '../../../../shared/contract'
import type { TranscriptItem, Usage } from '../../../../shared/domain'

export interface ChatState {
  sessionId: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  items: TranscriptItem[]
  running: boolean
  turnId: string | null
  /** A message is on its way to `session.send`; the composer waits. */
  sending: boolean
  sendError: string | null
  stopping: boolean
}

export type ChatAction =
  | { type: 'select'; sessionId: string; reload?: boolean }
  | { type: 'loaded'; sessionId: string; items: TranscriptItem[]; running: boolean }
  | { type: 'load-failed'; sessionId: string; error: string }
  | { type: 'event'; event: AnyEvent; at: number }
  | { type: 'send-started' }
  | { type: 'send-done'; sessionId: string; turnId: string }
  | { type: 'send-failed'; error: string }
  | { type: 'stop-requested' }
  | { type: 'stop-failed' }

export const initialChatState: ChatState = {
  sessionId: null,
  status: 'idle',
  error: null,
  items: [],
  running: false,
  turnId: null,
  sending: false,
  sendError: null,
  stopping: false
}

const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }

/** The identity an item keeps while it changes: messages by id, tools by call, ends by turn. */
export function itemKey(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return `user:${item.id}`
    case 'assistant':
      return `assistant:${item.id}`
    case 'tool':
      return `tool:${item.call.id}`
    case 'turn-end':
      return `turn-end:${item.turnId}`
    case 'compaction':
      return `compaction:${item.id}`
  }
}

function findIndex(items: TranscriptItem[], key: string): number {
  // Updates are nearly always about the newest items, so search from the end.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]
    if (item && itemKey(item) === key) return i
  }
  return -1
}

/** Replaces the item with the same key in place, or appends it. */
export function upsertItem(items: TranscriptItem[], item: TranscriptItem): TranscriptItem[] {
  const index = findIndex(items, itemKey(item))
  if (index === -1) return [...items, item]
  const next = items.slice()
  next[index] = item
  return next
}

function appendDelta(
  items: TranscriptItem[],
  payload: { turnId: string; messageId: string; delta: string },
  at: number
): TranscriptItem[] {
  const index = findIndex(items, `assistant:${payload.messageId}`)
  const current = index === -1 ? undefined : items[index]
  if (!current || current.kind !== 'assistant') {
    return [
      ...items,
      {
        kind: 'assistant',
        id: payload.messageId,
        turnId: payload.turnId,
        text: payload.delta,
        at,
        streaming: true
      }
    ]
  }
  const next = items.slice()
  next[index] = { ...current, text: current.text + payload.delta, streaming: true }
  return next
}

/** Ends a turn: stops its streaming cursors and adds a turn-end if the server sent none yet. */
function endTurn(
  items: TranscriptItem[],
  turnId: string,
  end: { usage: Usage; stopReason: string; error: string | null },
  at: number
): TranscriptItem[] {
  const settled = items.map((item) =>
    item.kind === 'assistant' && item.turnId === turnId && item.streaming
      ? { ...item, streaming: false }
      : item
  )
  const existing = findIndex(settled, `turn-end:${turnId}`)
  if (existing !== -1) {
    const current = settled[existing]
    // The server's own turn-end is authoritative; only fill in an error it lacks.
    if (current?.kind === 'turn-end' && end.error && !current.error) {
      settled[existing] = { ...current, error: end.error }
    }
    return settled
  }
  return [...settled, { kind: 'turn-end', turnId, ...end, at }]
}

function reduceEvent(state: ChatState, event: AnyEvent, at: number): ChatState {
  switch (event.event) {
    case 'transcript.item':
      return { ...state, items: upsertItem(state.items, event.payload.item) }
    case 'message.delta':
      return { ...state, items: appendDelta(state.items, event.payload, at) }
    case 'turn.started':
      return { ...state, running: true, turnId: event.payload.turnId, sending: false }
    case 'turn.completed': {
      const { turnId, usage, stopReason } = event.payload
      const items = endTurn(state.items, turnId, { usage, stopReason, error: null }, at)
      return { ...state, items, running: false, turnId: null, stopping: false, sending: false }
    }
    case 'turn.failed': {
      const { turnId, error } = event.payload
      const items = endTurn(
        state.items,
        turnId,
        { usage: NO_USAGE, stopReason: 'error', error },
        at
      )
      return { ...state, items, running: false, turnId: null, stopping: false, sending: false }
    }
    case 'session.updated':
      // A safety net for a missed turn event; never overrides an in-flight send.
      if (state.sending) return state
      return event.payload.running === state.running
        ? state
        : {
            ...state,
            running: event.payload.running,
            stopping: event.payload.running && state.stopping
          }
    default:
      return state
  }
}

/** The session an event is about, for the events the transcript cares about. */
export function eventSessionId(event: AnyEvent): string | null {
  switch (event.event) {
    case 'session.updated':
      return event.payload.id
    case 'transcript.item':
    case 'message.delta':
    case 'turn.started':
    case 'turn.completed':
    case 'turn.failed':
      return event.payload.sessionId
    default:
      return null
  }
}

function runningTurn(items: TranscriptItem[]): string | null {
  const last = items[items.length - 1]
  return last && last.kind !== 'user' && last.kind !== 'turn-end' ? last.turnId : null
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'select':
      if (state.sessionId === action.sessionId && state.status !== 'error') {
        // A reload keeps what is on screen until the fresh snapshot replaces it.
        return action.reload ? { ...state, status: 'loading' } : state
      }
      return { ...initialChatState, sessionId: action.sessionId, status: 'loading' }
    case 'loaded':
      if (action.sessionId !== state.sessionId) return state
      return {
        ...state,
        status: 'ready',
        items: action.items,
        running: action.running,
        turnId: action.running ? runningTurn(action.items) : null
      }
    case 'load-failed':
      if (action.sessionId !== state.sessionId) return state
      return { ...state, status: 'error', error: action.error }
    case 'event':
      // While the snapshot is on its way, events already in it arrive first on the same
      // ordered channel; applying them too would double the streamed text.
      if (state.status !== 'ready' || eventSessionId(action.event) !== state.sessionId) return state
      return reduceEvent(state, action.event, action.at)
    case 'send-started':
      return { ...state, sending: true, sendError: null }
    case 'send-done':
      if (action.sessionId !== state.sessionId) return state
      // turn.started may already have arrived, or may have come and gone for a very short turn.
      if (!state.sending) return state
      return { ...state, sending: false, running: true, turnId: action.turnId }
    case 'send-failed':
      return { ...state, sending: false, sendError: action.error }
    case 'stop-requested':
      return { ...state, stopping: true }
    case 'stop-failed':
      return { ...state, stopping: false }
  }
}

/** Whether the composer must wait. */
export function isBusy(state: ChatState): boolean {
  return state.running || state.sending || state.status !== 'ready'
}
