import type { EventPayload } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import type { EventHub } from '../events/event-hub'
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
  'question.resolved',
  // Each choice is its own row, so a replay puts every item on the branch it was added to.
  'branch.selected'
])

/** How often the new text of a streaming reply is saved. */
const PARTIAL_FLUSH_MS = 250

/** Options of a recorder; the defaults are what the app uses. */
export interface RecorderOptions {
  /** The clock that paces saving a streaming reply (a benchmark replays a paced stream). */
  now?: () => number
}

interface Streaming {
  sessionId: string
  key: string
  turnId: string
  messageId: string
  /** When new text was last saved (-Infinity: never, so the first piece is saved at once). */
  savedAt: number
  /** Text that streamed since then. */
  pending: string
}

/**
 * Writes every session event to the store as it happens, so a crash loses at most the last
 * quarter second of a streaming reply. The log stays linear in what the session holds: a
 * transcript item's new state replaces its row (see SessionLog), and a streaming reply is saved
 * as deltas, only the text that is new: at its first piece, then at most every PARTIAL_FLUSH_MS
 * (a timer catches the tail); its final state folds them away. The recorder listens before any
 * window does, so the first words a person saw were saved first.
 * A write that fails marks the session in the store (see SessionStore.recordingFailure): the
 * turn running in it reads that after each of its records and stops, saying why.
 */
export class SessionRecorder {
  private readonly streaming = new Map<string, Streaming>()
  private readonly timer: NodeJS.Timeout
  private readonly unsubscribe: () => void
  private readonly now: () => number

  constructor(
    private readonly store: SessionStore,
    hub: EventHub,
    options: RecorderOptions = {}
  ) {
    this.now = options.now ?? Date.now
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
    const key = transcriptKey(item)
    if (item.kind === 'assistant') {
      // A reply's state holds all its text so far: what streamed before it is in it.
      if (!item.streaming) this.streaming.delete(item.id)
      else {
        this.streaming.set(item.id, {
          sessionId,
          key,
          turnId: item.turnId,
          messageId: item.id,
          savedAt: Number.NEGATIVE_INFINITY,
          pending: ''
        })
      }
    }
    this.append(sessionId, 'transcript.item', { item }, key)
  }

  private onDelta(delta: EventPayload<'message.delta'>): void {
    const open = this.streaming.get(delta.messageId)
    if (!open) return
    open.pending += delta.delta
    if (this.now() - open.savedAt >= PARTIAL_FLUSH_MS) this.savePartial(open)
  }

  private flushPartials(): void {
    for (const open of this.streaming.values()) {
      if (open.pending === '') continue
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
    const { sessionId, key, turnId, messageId, pending } = open
    open.savedAt = this.now()
    const payload = { turnId, messageId, key, delta: pending }
    // Dropped only once written: text that failed to save goes with the next piece, so the
    // saved deltas never have a hole in the middle. A session with no row records nothing more.
    if (this.store.append(sessionId, { kind: 'message.delta', key, payload })) open.pending = ''
    else this.streaming.delete(messageId)
  }

  private append(
    sessionId: string,
    kind: string,
    payload: Record<string, unknown>,
    key: string | null
  ): void {
    // The session is the log's own; a fork's copy must not name the session it came from.
    const { sessionId: _omitted, ...rest } = payload
    void _omitted
    this.store.append(sessionId, { kind, key, payload: rest })
  }
}
