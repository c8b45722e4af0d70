import type { StoreDatabase } from './database'
import { decodeRow, outlineRows, type OutlineRow, type StoredEvent } from './session-log'

/**
 * The newest part of a session with no branches, from a turn's start on, and what the log
 * holds before it: enough to show its first screen as the whole would, reading only that part
 * row by row (the rest is counted in the database).
 */
export interface TailOutline {
  /** The outline from the cut on (see SessionLog.outline). */
  rows: OutlineRow[]
  /** The items before the cut (every one shown, every turn among them ended) and its messages. */
  before: { items: number; messages: number }
  /** The latest time the session recorded (a turn left unended is closed at it). */
  lastAt: number
  /** The session's latest plan, whole; null: it never had one. */
  todos: StoredEvent | null
  /** Its `session.updated` events, whole (its recorded profile and folder trust). */
  updates: StoredEvent[]
}

const ITEM = `kind = 'transcript.item'`
/** Keys of one kind of item (see transcriptKey): `user:…`, `turn-end:…`. */
const keyOf = (kind: string): string => `(key >= '${kind}:' AND key < '${kind};')`
const OUTLINE = 'session_events INDEXED BY session_events_outline'

/**
 * The tail of a session whose `tail` newest items it can be cut before (see TailOutline), or
 * null when it cannot be cut so: a branch (a message that does not follow the one before it, a
 * choice of branch), fewer items than a screen, an item recorded twice, or a turn that did not
 * end before the cut or spans it (a replay closes such turns, which needs the whole log).
 */
export function tailOutline(
  database: StoreDatabase,
  sessionId: string,
  tail: number
): TailOutline | null {
  const value = (sql: string, ...params: unknown[]): unknown =>
    database
      .prepare(sql)
      .pluck()
      .get(...params)
  const newest = value(
    `SELECT seq FROM ${OUTLINE} WHERE session_id = ? AND ${ITEM} ORDER BY seq DESC LIMIT 1 OFFSET ?`,
    sessionId,
    Math.max(0, tail - 1)
  )
  if (typeof newest !== 'number') return null
  // The cut: after the last item before the message that starts the turn holding `newest`.
  const message = value(
    `SELECT seq FROM ${OUTLINE} WHERE session_id = ? AND seq <= ? AND ${ITEM} AND ${keyOf('user')}
     ORDER BY seq DESC LIMIT 1`,
    sessionId,
    newest
  )
  if (typeof message !== 'number') return null
  const cut = value(
    `SELECT seq FROM ${OUTLINE} WHERE session_id = ? AND seq < ? AND ${ITEM}
     ORDER BY seq DESC LIMIT 1`,
    sessionId,
    message
  )
  if (typeof cut !== 'number') return null
  if (branched(database, sessionId) || !closedBefore(database, sessionId, cut)) return null
  // An item is one row, in its latest state (see SessionLog): its rows are its count.
  const before = database
    .prepare<[string, number], { items: number; messages: number }>(
      `SELECT count(*) AS items,
         coalesce(sum(${keyOf('user')} OR ${keyOf('assistant')}), 0) AS messages
       FROM ${OUTLINE} WHERE session_id = ? AND seq <= ? AND ${ITEM}`
    )
    .get(sessionId, cut)
  if (!before) return null
  const whole = (sql: string): StoredEvent[] =>
    database.prepare<[string], Parameters<typeof decodeRow>[0]>(sql).all(sessionId).map(decodeRow)
  const rows = `SELECT seq, at, kind, key, payload, text FROM ${OUTLINE} WHERE session_id = ?`
  return {
    rows: outlineRows(database, sessionId, cut),
    before: { items: before.items, messages: before.messages },
    lastAt: Number(value(`SELECT max(at) FROM ${OUTLINE} WHERE session_id = ?`, sessionId)),
    todos: whole(`${rows} AND kind = 'todo.updated' ORDER BY seq DESC LIMIT 1`)[0] ?? null,
    updates: whole(`${rows} AND kind = 'session.updated' ORDER BY seq`)
  }
}

/**
 * Whether the session has more than one branch: a choice of branch recorded, or messages that
 * do not each follow the one before. Each message records the one it follows (its parent; none:
 * the first), and when all do, they are a single line exactly when no two name the same parent
 * and each names an earlier message: the first can only name none, the second only the first,
 * and so on. Records from before branches name none and always follow the newest message.
 */
function branched(database: StoreDatabase, sessionId: string): boolean {
  const chosen = database
    .prepare(`SELECT 1 FROM ${OUTLINE} WHERE session_id = ? AND kind = 'branch.selected' LIMIT 1`)
    .get(sessionId)
  if (chosen) return true
  const messages = `session_events u INDEXED BY session_events_by_key
    WHERE u.session_id = @session AND u.${ITEM} AND u.key >= 'user:' AND u.key < 'user;'`
  const parent = `json_extract(u.payload, '$.item.parent')`
  const counts = database
    .prepare<[{ session: string }], { messages: number; placed: number; parents: number }>(
      `SELECT count(*) AS messages, count(json_type(u.payload, '$.item.parent')) AS placed,
         count(DISTINCT coalesce(${parent}, '')) AS parents FROM ${messages}`
    )
    .get({ session: sessionId })
  if (!counts || counts.placed === 0) return false
  if (counts.placed !== counts.messages || counts.parents !== counts.messages) return true
  const astray = database
    .prepare(
      `SELECT 1 FROM ${messages} AND ${parent} IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM session_events p INDEXED BY session_events_by_key
         WHERE p.session_id = @session AND p.key = ${parent} AND p.seq < u.seq
           AND p.${ITEM}) LIMIT 1`
    )
    .get({ session: sessionId })
  return astray !== undefined
}

/**
 * Whether every turn before the cut ended before it, and none that did has a part after it: a
 * turn is named by its items (their \`turn\` column) and its start (\`turn.started\`, which the
 * message after it belongs to). Each turn has one end (its key is \`turn-end:<turn>\`), so the
 * turns before the cut all ended there when they are as many as the ends there.
 */
function closedBefore(database: StoreDatabase, sessionId: string, cut: number): boolean {
  const params = { session: sessionId, cut }
  const counts = database
    .prepare<[typeof params], { turns: number; ends: number }>(
      `SELECT
         (SELECT count(DISTINCT turn) FROM (
            SELECT turn FROM ${OUTLINE}
            WHERE session_id = @session AND seq <= @cut AND turn IS NOT NULL
            UNION ALL
            SELECT json_extract(payload, '$.turnId') FROM ${OUTLINE}
            WHERE session_id = @session AND seq <= @cut AND kind = 'turn.started')) AS turns,
         (SELECT count(*) FROM ${OUTLINE}
          WHERE session_id = @session AND seq <= @cut AND ${ITEM} AND ${keyOf('turn-end')}) AS ends`
    )
    .get(params)
  if (!counts || counts.turns !== counts.ends) return false
  const endedBefore = (turn: string): string =>
    `EXISTS (SELECT 1 FROM session_events t INDEXED BY session_events_by_key
       WHERE t.session_id = @session AND t.key = 'turn-end:' || ${turn} AND t.seq <= @cut
         AND t.${ITEM})`
  const resumed = database
    .prepare(
      `SELECT 1 FROM session_events e INDEXED BY session_events_outline
       WHERE e.session_id = @session AND e.seq > @cut
         AND ((e.turn IS NOT NULL AND ${endedBefore('e.turn')})
           OR (e.kind = 'turn.started' AND ${endedBefore("json_extract(e.payload, '$.turnId')")}))
       LIMIT 1`
    )
    .get(params)
  return resumed === undefined
}
