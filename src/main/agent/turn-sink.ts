import type { TranscriptItem, Usage } from '../../shared/domain'
import type { TurnCost } from '../../shared/model-prices'
import type { EventHub } from '../events/event-hub'
import { transcriptKey, type Session } from './session'

/** How a turn ended, as its turn-end item already says. */
export interface TurnEnded {
  turnId: string
  usage: Usage
  /** What the turn cost; null when its model has no price. */
  cost: TurnCost | null
  stopReason: string
  /** Why it failed, or null when the model finished (or was stopped). */
  error: string | null
}

/**
 * Where a turn's progress goes. The session binds it to the event hub (and so to the recorder
 * and every window), a child agent to its parent's card, a test to a list. The turn loop speaks
 * only to this.
 */
export interface TurnSink {
  started(turnId: string): void
  /** An item of the transcript is new or changed (the session already holds it). */
  item(item: TranscriptItem): void
  /** More text of a streaming reply. */
  delta(turnId: string, messageId: string, delta: string): void
  /** More thinking of a streaming reply, in its block at `place` (shown, not recorded). */
  thinkingDelta?(turnId: string, messageId: string, place: number, delta: string): void
  /** The session's summary changed (title, taint, running). */
  summaryChanged(): void
  ended(end: TurnEnded): void
  /**
   * Why what the turn does can no longer be recorded, once it cannot; asked after every item,
   * and the turn stops when it answers (nothing may happen that is not recorded).
   */
  recordingFailure(): string | null
}

/** A session's own turns: announced on the hub, which the recorder and the windows hear. */
export function sessionSink(
  session: Session,
  hub: EventHub,
  recordingFailure: () => string | null = () => null
): TurnSink {
  const sessionId = session.id
  return {
    started: (turnId) => hub.emit('turn.started', { sessionId, turnId }),
    item: (item) => announceItem(hub, session, item),
    delta: (turnId, messageId, delta) =>
      hub.emit('message.delta', { sessionId, turnId, messageId, key: replyKey(messageId), delta }),
    thinkingDelta: (turnId, messageId, place, delta) =>
      hub.emit('thinking.delta', {
        sessionId,
        turnId,
        messageId,
        key: replyKey(messageId),
        place,
        delta
      }),
    summaryChanged: () => hub.emit('session.updated', session.summary()),
    ended: ({ turnId, usage, cost, stopReason, error }) => {
      if (error) hub.emit('turn.failed', { sessionId, turnId, error })
      else hub.emit('turn.completed', { sessionId, turnId, usage, cost, stopReason })
    },
    recordingFailure
  }
}

/** Tells the windows (and the recorder) that an item of a session is new or changed. */
export function announceItem(hub: EventHub, session: Session, item: TranscriptItem): void {
  hub.emit('transcript.item', { sessionId: session.id, key: transcriptKey(item), item })
}

/** The key of the streaming reply a delta extends: the same transcriptKey its item has. */
function replyKey(id: string): string {
  return transcriptKey({ kind: 'assistant', id, turnId: '', text: '', at: 0, streaming: true })
}
