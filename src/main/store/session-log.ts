import type { StoreDatabase } from './database'
import { decodeEvent, encodeEvent } from './session-log-codec'

/** One recorded event of a session, as the hub emitted it (without its `sessionId`). */
export interface StoredEvent {
  /** Its place in the log: rising within a session (not contiguous: folded rows leave gaps). */
  seq: number
  at: number
  /** The event's name: `transcript.item`, `message.delta`, `turn.started`, `todo.updated`... */
  kind: string
  /** A transcript item's key, or for a `message.delta` its reply's key; else null. */
  key: string | null
  payload: Record<string, unknown>
}

/** An event to record. */
export interface NewEvent {
  kind: string
  /**
   * A transcript item's key: the event is the item's latest state and replaces what was recorded
   * under the key. For a `message.delta`, the key of the reply it adds to.
   */
  key?: string | null
  payload: Record<string, unknown>
  /**
   * What search should find in an event that carries no message; a message's own words (a user
   * message, a reply, a delta) are stored for search as they are, and this is not needed.
   */
  text?: string | null
  at?: number
}

/** The event kind that adds to an item instead of replacing it: a piece of a streaming reply. */
export const DELTA = 'message.delta'

/** An event of a session's outline (see SessionLog.outline). */
export interface OutlineRow {
  seq: number
  at: number
  kind: string
  key: string | null
  /** A reply's or tool call's turn (its item's `turnId`, when a string); else null. */
  turnId: unknown
  /** The event, except for a reply, a tool call or a delta: null. */
  payload: Record<string, unknown> | null
}

type RowOf<T> = Omit<T, 'payload'> & { payload: string; text: string | null }

/**
 * The rows of a reply or a tool call (their keys are `assistant:…` and `tool:…`, see
 * transcriptKey): the bulk of a log, which an outline leaves unread.
 */
const BODY = `kind = 'transcript.item' AND key IS NOT NULL AND (
  (key >= 'assistant:' AND key < 'assistant;') OR (key >= 'tool:' AND key < 'tool;'))`

/** The turn a transcript item belongs to, kept in its row's own column (see outline). */
function turnOf(event: NewEvent): string | null {
  if (event.kind !== 'transcript.item') return null
  const item = event.payload.item
  if (typeof item !== 'object' || item === null) return null
  const turn = (item as { turnId?: unknown }).turnId
  return typeof turn === 'string' ? turn : null
}

export function decodeRow({ text, payload, ...row }: RowOf<StoredEvent>): StoredEvent {
  return { ...row, payload: decodeEvent(row.kind, payload, text) }
}

interface Earlier {
  seq: number
  kind: string
  bytes: number
}

/**
 * A session's event log, linear in what it holds: each transcript item is one row in its latest
 * state, at the place the item first appeared, so the log holds each byte of final content about
 * once however often the item changed on the way. A reply streams as `message.delta` rows of new
 * text only, which its final state folds away; until then (a crash mid-reply) the reply's row
 * plus its deltas are the text so far. Each write is one transaction: a row is always in one
 * whole state, and a fold either happened or not.
 */
export class SessionLog {
  /**
   * The last outline read, kept while the file is unchanged: a window opening a session asks
   * for its first screen more than once (the transcript, its questions), and each would read
   * the whole log again. Any write of this connection drops it; another's changes the file's
   * data version.
   */
  private cached: { sessionId: string; version: number; rows: readonly OutlineRow[] } | null = null

  constructor(private readonly database: StoreDatabase) {}

  /** Drops the outline kept (see `cached`), after a write that did not go through `write`. */
  forget(): void {
    this.cached = null
  }

  /**
   * Records `event` for the session and keeps its size (bytes of its rows) current; false when
   * the session has no row, and then nothing is written.
   */
  write(sessionId: string, event: NewEvent, at: number): boolean {
    const encoded = encodeEvent(event.kind, event.payload)
    if (encoded.text === null) encoded.text = event.text ?? null
    const bytes = Buffer.byteLength(encoded.payload) + Buffer.byteLength(encoded.text ?? '')
    const key = event.key ?? null
    const turn = turnOf(event)
    this.cached = null
    return this.database.write(() => {
      const earlier =
        key !== null && event.kind !== DELTA ? this.earlier(sessionId, key, event.kind) : []
      const target = earlier.find((row) => row.kind === event.kind)
      const freed = earlier.reduce((sum, row) => sum + row.bytes, 0)
      const grown = this.database
        .prepare(
          `UPDATE sessions SET size_bytes = max(0, size_bytes + ?), updated_at = max(updated_at, ?)
           WHERE id = ?`
        )
        .run(bytes - freed, at, sessionId)
      if (grown.changes === 0) return false
      let kept = target?.seq
      if (kept === undefined) {
        kept = Number(
          this.database
            .prepare(
              `INSERT INTO session_events (session_id, at, kind, key, payload, text, turn)
               VALUES (?, ?, ?, ?, ?, ?, ?)`
            )
            .run(sessionId, at, event.kind, key, encoded.payload, encoded.text, turn)
            .lastInsertRowid
        )
      } else {
        this.database
          .prepare(
            'UPDATE session_events SET at = ?, payload = ?, text = ?, turn = ? WHERE seq = ?'
          )
          .run(at, encoded.payload, encoded.text, turn, kept)
      }
      // The rest under the key is superseded: a reply's deltas (also those of a reply whose
      // first row could not be written), and any second row two processes once raced to add.
      if (earlier.some((row) => row.seq !== kept)) {
        this.database
          .prepare(
            `DELETE FROM session_events WHERE session_id = ? AND key = ? AND kind IN (?, ?)
             AND seq <> ?`
          )
          .run(sessionId, key, event.kind, DELTA, kept)
      }
      return true
    })
  }

  /** The session's events in the order they happened. */
  events(sessionId: string): StoredEvent[] {
    return this.database
      .prepare<
        [string],
        {
          seq: number
          at: number
          kind: string
          key: string | null
          payload: string
          text: string | null
        }
      >(
        `SELECT seq, at, kind, key, payload, text FROM session_events WHERE session_id = ?
         ORDER BY seq`
      )
      .all(sessionId)
      .map(decodeRow)
  }

  /**
   * The session's events in order, as replaying places them (see planReplay), without reading
   * the big part of the log: the body of a reply or a tool call (its `payload` is null; its turn
   * is `turnId`, from the row's `turn` column) and a delta's text. Every other event comes whole, but without
   * its search text: a user message's words are not needed to place it.
   */
  outline(sessionId: string): readonly OutlineRow[] {
    const version = this.database.dataVersion()
    const cached = this.cached
    if (cached?.sessionId === sessionId && cached.version === version) return cached.rows
    const rows = outlineRows(this.database, sessionId)
    this.cached = { sessionId, version, rows }
    return rows
  }

  /** The session's whole events of the given places in its log (`seq`), in order. */
  rows(sessionId: string, seqs: readonly number[]): StoredEvent[] {
    return this.database
      .prepare<[string, string], RowOf<StoredEvent>>(
        `SELECT seq, at, kind, key, payload, text FROM session_events
         WHERE seq IN (SELECT value FROM json_each(?)) AND session_id = ? ORDER BY seq`
      )
      .all(JSON.stringify(seqs), sessionId)
      .map(decodeRow)
  }

  /** What is recorded under `key` that an event of `kind` supersedes: its state and deltas. */
  private earlier(sessionId: string, key: string, kind: string): Earlier[] {
    return this.database
      .prepare<[string, string, string, string], Earlier>(
        `SELECT seq, kind, octet_length(payload) + coalesce(octet_length(text), 0) AS bytes
         FROM session_events WHERE session_id = ? AND key = ? AND kind IN (?, ?) ORDER BY seq`
      )
      .all(sessionId, key, kind, DELTA)
  }
}

/**
 * The outline of a session's events after `after` (a place in its log; none: all of them), in
 * two reads: every event's place from the index alone, then the few small events whole.
 */
export function outlineRows(database: StoreDatabase, sessionId: string, after = -1): OutlineRow[] {
  const payloads = new Map(
    database
      .prepare<[string, number], { seq: number; payload: string }>(
        `SELECT seq, payload FROM session_events INDEXED BY session_events_outline
         WHERE session_id = ? AND seq > ? AND kind <> '${DELTA}' AND NOT (${BODY})`
      )
      .raw(true)
      .all(sessionId, after) as unknown as [number, string][]
  )
  return (
    database
      .prepare<[string, number], unknown[]>(
        `SELECT seq, at, kind, key, turn FROM session_events INDEXED BY session_events_outline
         WHERE session_id = ? AND seq > ? ORDER BY seq`
      )
      .raw(true)
      .all(sessionId, after) as [number, number, string, string | null, unknown][]
  ).map(([seq, at, kind, key, turn]): OutlineRow => {
    const payload = payloads.get(seq)
    return {
      seq,
      at,
      kind,
      key,
      turnId: payload === undefined ? turn : null,
      payload: payload === undefined ? null : decodeEvent(kind, payload, null)
    }
  })
}
