import type { EventPayload } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import type { EventHub } from '../rpc/event-hub'
import type { SessionStore } from '../store/session-store'
import { RecordingError } from '../store/store-failure'
import { transcriptKey } from './session'

/** The events a session's log keeps; the rest (job output, MCP status) belong to no session. */
const RECORDED = new Set<string>([
  'session.updated',
  'transcript.item',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'todo.updated',
  'approval.requested',
  'approval.resolved',
  'question.asked',
  'question.resolved'
])

/** How often a reply's partial text is saved while it streams. */
const PARTIAL_FLUSH_MS = 250

interface Streaming {
  sessionId: string
  /** When the partial text was last saved (0: never). */
  savedAt: number
  item: Extract<TranscriptItem, { kind: 'assistant' }>
  dirty: boolean
}

/**
 * Writes every session event to the store as it happens, so a crash loses at most the last
 * quarter second of a streaming reply. Deltas are not stored one by one (the final transcript
 * item carries the whole text); instead the partial reply is saved as its transcript item at
 * its first delta and then at most every PARTIAL_FLUSH_MS while it streams (a timer catches the
 * tail). The recorder listens before any window does, so text a person saw was saved first.
 * A write that fails marks the session in the store (see SessionStore.recordingFailure): the
 * turn running in it reads that after each of its records and stops, saying why.
 */
export class SessionRecorder {
  private readonly streaming = new Map<string, Streaming>()
  private readonly timer: NodeJS.Timeout
  private readonly unsubscribe: () => void

  constructor(
    private readonly store: SessionStore,
    hub: EventHub
  ) {
    this.unsubscribe = hub.subscribe((frame) => this.record(frame))
    this.timer = setInterval(() => this.flushPartials(), PARTIAL_FLUSH_MS)
    // Saving partial text must never keep a finished CLI process alive.
    this.timer.unref()
  }

  /**
   * Records one event; never throws at the emitter. A store that cannot write says so through
   * the session's recording failure; anything else is logged.
   */
  record(frame: EventFrame): void {
    try {
      if (frame.event === 'message.delta') {
        this.onDelta(frame.payload as EventPayload<'message.delta'>)
        return
      }
      if (!RECORDED.has(frame.event)) return
      const payload = frame.payload as Record<string, unknown>
      if (frame.event === 'session.updated') {
        const summary = frame.payload as SessionSummary
        this.store.saveSummary(summary)
        this.append(summary.id, frame.event, payload, null)
        return
      }
      const sessionId = payload.sessionId
      if (typeof sessionId !== 'string') return
      if (frame.event === 'transcript.item') {
        const { item } = frame.payload as EventPayload<'transcript.item'>
        this.onItem(sessionId, item)
        return
      }
      this.append(sessionId, frame.event, payload, null)
    } catch (error) {
      if (!(error instanceof RecordingError)) {
        console.error(`could not record ${frame.event} in the session store:`, error)
      }
    }
  }

  /** Saves what is still streaming and stops listening. */
  close(): void {
    this.flushPartials()
    clearInterval(this.timer)
    this.unsubscribe()
  }

  private onItem(sessionId: string, item: TranscriptItem): void {
    if (item.kind === 'assistant') {
      if (item.streaming)
        this.streaming.set(item.id, { sessionId, savedAt: 0, item: { ...item }, dirty: false })
      else this.streaming.delete(item.id)
    }
    const text = item.kind === 'user' || item.kind === 'assistant' ? item.text : null
    this.append(sessionId, 'transcript.item', { item }, transcriptKey(item), text)
  }

  private onDelta(delta: EventPayload<'message.delta'>): void {
    const open = this.streaming.get(delta.messageId)
    if (!open) return
    open.item.text += delta.delta
    open.dirty = true
    if (Date.now() - open.savedAt >= PARTIAL_FLUSH_MS) this.savePartial(open)
  }

  private flushPartials(): void {
    for (const open of this.streaming.values()) {
      if (!open.dirty) continue
      // The timer's own write: a failure must not escape it (it would end the process).
      try {
        this.savePartial(open)
      } catch (error) {
        if (!(error instanceof RecordingError))
          console.error('could not save a partial reply:', error)
      }
    }
  }

  private savePartial(open: Streaming): void {
    open.dirty = false
    open.savedAt = Date.now()
    const item = { ...open.item }
    this.append(open.sessionId, 'transcript.item', { item }, transcriptKey(item), item.text)
  }

  private append(
    sessionId: string,
    kind: string,
    payload: Record<string, unknown>,
    key: string | null,
    text: string | null = null
  ): void {
    // The session is the log's own; a fork's copy must not name the session it came from.
    const { sessionId: _omitted, ...rest } = payload
    void _omitted
    this.store.append(sessionId, { kind, key, payload: rest, text })
  }
}
