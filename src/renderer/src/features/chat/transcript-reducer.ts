import type { AnyEvent } from '../../../../shared/contract'
import type { TranscriptItem } from '../../../../shared/domain'

/** One item of the transcript under the key the core gave it (see transcriptKey in the core). */
export interface TranscriptEntry {
  key: string
  item: TranscriptItem
}

export interface ChatState {
  sessionId: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  /** The transcript, oldest first, folded by key: the window never works a key out itself. */
  entries: TranscriptEntry[]
  running: boolean
  turnId: string | null
  /** A message is on its way to `session.send`; the composer waits. */
  sending: boolean
  sendError: string | null
  stopping: boolean
  /** The user messages shown that have other versions: key → every version's key, in order. */
  branches: Record<string, string[]>
  /** Older items not loaded yet: a long session shows its first screen before the rest is in. */
  earlier: number
}

export type ChatAction =
  | { type: 'select'; sessionId: string; reload?: boolean }
  | {
      type: 'loaded'
      sessionId: string
      entries: TranscriptEntry[]
      running: boolean
      branches?: Record<string, string[]>
      earlier?: number
    }
  | { type: 'load-failed'; sessionId: string; error: string }
  | { type: 'event'; event: AnyEvent }
  | { type: 'send-started' }
  | { type: 'send-done'; sessionId: string; turnId: string }
  | { type: 'send-failed'; error: string }
  | { type: 'stop-requested' }
  | { type: 'stop-failed' }

export const initialChatState: ChatState = {
  sessionId: null,
  status: 'idle',
  error: null,
  entries: [],
  running: false,
  turnId: null,
  sending: false,
  sendError: null,
  stopping: false,
  branches: {},
  earlier: 0
}

/**
 * A `session.get` snapshot as entries: `keys[i]` is the key of `transcript[i]`. A snapshot whose
 * keys do not pair up one for one with distinct items is refused rather than folded wrongly.
 */
export function snapshotEntries(
  transcript: readonly TranscriptItem[],
  keys: readonly string[]
): TranscriptEntry[] {
  if (keys.length !== transcript.length) {
    const items = `${transcript.length} item${transcript.length === 1 ? '' : 's'}`
    const named = `${keys.length} key${keys.length === 1 ? '' : 's'}`
    throw new Error(
      `its snapshot has ${items} but ${named}, so the window cannot tell them apart; try again`
    )
  }
  const seen = new Set<string>()
  return transcript.map((item, i) => {
    const key = keys[i] as string
    if (seen.has(key)) {
      throw new Error(
        `its snapshot has two items of the key "${key}", so the window cannot tell them apart; try again`
      )
    }
    seen.add(key)
    return { key, item }
  })
}

function findIndex(entries: readonly TranscriptEntry[], key: string): number {
  // Updates are nearly always about the newest items, so search from the end.
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]?.key === key) return i
  }
  return -1
}

/** Replaces the entry with the same key in place, or appends it. */
function upsertEntry(entries: TranscriptEntry[], entry: TranscriptEntry): TranscriptEntry[] {
  const index = findIndex(entries, entry.key)
  if (index === -1) return [...entries, entry]
  const next = entries.slice()
  next[index] = entry
  return next
}

/**
 * More text for a streaming reply. The core announces the reply before its first piece, so a
 * piece for a reply the window does not hold is dropped, never made into an item of its own.
 */
function appendDelta(
  entries: TranscriptEntry[],
  payload: { key: string; delta: string }
): TranscriptEntry[] {
  const index = findIndex(entries, payload.key)
  const current = entries[index]
  if (current?.item.kind !== 'assistant') return entries
  const next = entries.slice()
  next[index] = {
    key: current.key,
    item: { ...current.item, text: current.item.text + payload.delta, streaming: true }
  }
  return next
}

/**
 * More thinking of a streaming reply: added to its block at `place`, or a new block when the
 * place is the next one. The block's finished state (with its signature) comes as the reply's
 * new state and replaces what was gathered here.
 */
function appendThinking(
  entries: TranscriptEntry[],
  payload: { key: string; place: number; delta: string }
): TranscriptEntry[] {
  const index = findIndex(entries, payload.key)
  const current = entries[index]
  if (current?.item.kind !== 'assistant') return entries
  const blocks = [...(current.item.thinking ?? [])]
  const block = blocks[payload.place]
  if (block?.type === 'thinking') {
    blocks[payload.place] = { ...block, thinking: block.thinking + payload.delta }
  } else if (payload.place === blocks.length) {
    blocks.push({ type: 'thinking', thinking: payload.delta, signature: '' })
  } else {
    return entries
  }
  const next = entries.slice()
  next[index] = { key: current.key, item: { ...current.item, thinking: blocks } }
  return next
}

function reduceEvent(state: ChatState, event: AnyEvent): ChatState {
  switch (event.event) {
    case 'transcript.item': {
      const { key, item } = event.payload
      return { ...state, entries: upsertEntry(state.entries, { key, item }) }
    }
    case 'message.delta':
      return { ...state, entries: appendDelta(state.entries, event.payload) }
    case 'thinking.delta':
      return { ...state, entries: appendThinking(state.entries, event.payload) }
    case 'turn.started':
      return { ...state, running: true, turnId: event.payload.turnId, sending: false }
    // A turn's end is an item the core recorded before saying it ended: only the flags change.
    case 'turn.completed':
    case 'turn.failed':
      return { ...state, running: false, turnId: null, stopping: false, sending: false }
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
    case 'thinking.delta':
    case 'turn.started':
    case 'turn.completed':
    case 'turn.failed':
      return event.payload.sessionId
    default:
      return null
  }
}

function runningTurn(entries: TranscriptEntry[]): string | null {
  const last = entries[entries.length - 1]?.item
  return last && last.kind !== 'user' && last.kind !== 'turn-end' && last.kind !== 'restore'
    ? last.turnId
    : null
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
        entries: action.entries,
        running: action.running,
        branches: action.branches ?? {},
        earlier: action.earlier ?? 0,
        turnId: action.running ? runningTurn(action.entries) : null
      }
    case 'load-failed':
      if (action.sessionId !== state.sessionId) return state
      return { ...state, status: 'error', error: action.error }
    case 'event':
      // While the snapshot is on its way, events already in it arrive first on the same
      // ordered channel; applying them too would double the streamed text.
      if (state.status !== 'ready' || eventSessionId(action.event) !== state.sessionId) return state
      return reduceEvent(state, action.event)
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
