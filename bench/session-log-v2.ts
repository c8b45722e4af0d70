// The session writer as it was before the linear log (schema version 2), kept here only so the
// benchmark can measure it beside the new one in the same run. Not used by the app.
import type { EventFrame } from '../src/shared/contract/bridge'
import type { SessionSummary, TranscriptItem } from '../src/shared/domain'
import { transcriptKey } from '../src/main/agent/session'
import type { StoreDatabase } from '../src/main/store/database'

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

const PARTIAL_FLUSH_MS = 250

interface Streaming {
  sessionId: string
  savedAt: number
  item: Extract<TranscriptItem, { kind: 'assistant' }>
  dirty: boolean
}

/**
 * Version 2's recorder and store in one: every partial save of a streaming reply appends the
 * whole reply so far, every change of a tool card appends the whole card, and nothing is ever
 * deleted. `now` is the clock that paces the partial saves (the app used Date.now).
 */
export class V2SessionWriter {
  private readonly streaming = new Map<string, Streaming>()

  constructor(
    private readonly database: StoreDatabase,
    private readonly now: () => number
  ) {}

  record(frame: EventFrame): void {
    if (frame.event === 'message.delta') {
      const delta = frame.payload as { messageId: string; delta: string }
      const open = this.streaming.get(delta.messageId)
      if (!open) return
      open.item.text += delta.delta
      open.dirty = true
      if (this.now() - open.savedAt >= PARTIAL_FLUSH_MS) this.savePartial(open)
      return
    }
    if (!RECORDED.has(frame.event)) return
    const payload = frame.payload as Record<string, unknown>
    if (frame.event === 'session.updated') {
      const summary = frame.payload as SessionSummary
      this.saveSummary(summary)
      this.append(summary.id, frame.event, payload, null)
      return
    }
    const sessionId = payload.sessionId
    if (typeof sessionId !== 'string') return
    if (frame.event === 'transcript.item') {
      const { item } = frame.payload as { item: TranscriptItem }
      if (item.kind === 'assistant') {
        if (item.streaming)
          this.streaming.set(item.id, { sessionId, savedAt: 0, item: { ...item }, dirty: false })
        else this.streaming.delete(item.id)
      }
      const text = item.kind === 'user' || item.kind === 'assistant' ? item.text : null
      this.append(sessionId, 'transcript.item', { item }, transcriptKey(item), text)
      return
    }
    this.append(sessionId, frame.event, payload, null)
  }

  close(): void {
    for (const open of this.streaming.values()) if (open.dirty) this.savePartial(open)
  }

  private savePartial(open: Streaming): void {
    open.dirty = false
    open.savedAt = this.now()
    const item = { ...open.item }
    this.append(open.sessionId, 'transcript.item', { item }, transcriptKey(item), item.text)
  }

  private saveSummary(summary: SessionSummary): void {
    this.database
      .prepare(
        `INSERT INTO sessions (id, workspace, title, created_at, updated_at, provider_id, model,
           message_count)
         VALUES (@id, @workspace, @title, @createdAt, @updatedAt, @providerId, @model,
           @messageCount)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title,
           updated_at = max(updated_at, excluded.updated_at),
           message_count = excluded.message_count`
      )
      .run({
        id: summary.id,
        workspace: summary.workspace,
        title: summary.title,
        createdAt: summary.createdAt,
        updatedAt: summary.updatedAt,
        providerId: summary.model?.providerId ?? null,
        model: summary.model?.model ?? null,
        messageCount: summary.messageCount
      })
  }

  private append(
    sessionId: string,
    kind: string,
    payload: Record<string, unknown>,
    key: string | null,
    text: string | null = null
  ): void {
    const { sessionId: _omitted, ...rest } = payload
    void _omitted
    const json = JSON.stringify(rest)
    const at = Date.now()
    this.database.write(() => {
      this.database
        .prepare(
          `UPDATE sessions SET size_bytes = size_bytes + ?, updated_at = max(updated_at, ?)
           WHERE id = ?`
        )
        .run(Buffer.byteLength(json), at, sessionId)
      this.database
        .prepare(
          `INSERT INTO session_events (session_id, seq, at, kind, key, payload, text)
           SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?
           FROM session_events WHERE session_id = ?`
        )
        .run(sessionId, at, kind, key, json, text, sessionId)
    })
  }
}
