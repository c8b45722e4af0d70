import type Database from 'better-sqlite3'
import type { Migration } from './migrations'
import { encodeEvent } from './session-log-codec'

/** Message rows re-encoded per statement while migrating, so memory stays bounded. */
const BATCH = 200

/**
 * The linear session log. Version 2 appended a transcript item's whole state on every change
 * (a reply's whole text every quarter second, a tool card on every progress report) and kept
 * them all; the log grew with the square of a long reply. From here a session's events are:
 * - one row per transcript item, holding its latest state, at the place the item first
 *   appeared (a change replaces the row in place; see SessionLog);
 * - `message.delta` rows while a reply streams: only the new text, under the reply's key,
 *   folded away when the reply's final state replaces its row;
 * - the other events, appended as before.
 * A message's words are kept once, in `text` (see session-log-codec.ts).
 *
 * The table becomes an ordinary rowid table: SQLite keeps a WITHOUT ROWID row longer than about
 * a quarter of a page partly in overflow pages, so every tool card of a few kilobytes wasted most
 * of a page. `seq` is now the row id, rising across sessions (a session's rows in `seq` order are
 * its log). Existing logs are folded to the same shape: each item's latest state at its first
 * place, which is exactly what reading them back made of them, so no session reads differently.
 */
export const sessionLogMigration: Migration = {
  version: 3,
  name: 'linear session log',
  up(db) {
    db.exec(`
      CREATE TABLE session_log (
        seq INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        -- The event's name as the hub emits it: transcript.item, message.delta, turn.started...
        kind TEXT NOT NULL,
        -- transcript.item: the item's key (see transcriptKey); message.delta: its reply's key.
        key TEXT,
        -- The event as JSON, a message's words left out (null in their place).
        payload TEXT NOT NULL,
        -- A message's words, which search reads.
        text TEXT
      );

      WITH spans AS (
        SELECT session_id, key, min(seq) AS first, max(seq) AS last
        FROM session_events
        WHERE kind = 'transcript.item' AND key IS NOT NULL
        GROUP BY session_id, key
      )
      INSERT INTO session_log (session_id, at, kind, key, payload, text)
      SELECT e.session_id,
        CASE WHEN l.seq IS NULL THEN e.at ELSE l.at END,
        e.kind, e.key,
        CASE WHEN l.seq IS NULL THEN e.payload ELSE l.payload END,
        CASE WHEN l.seq IS NULL THEN e.text ELSE l.text END
      FROM session_events e
      LEFT JOIN spans s ON e.kind = 'transcript.item' AND s.session_id = e.session_id
        AND s.key = e.key
      LEFT JOIN session_events l ON l.session_id = s.session_id AND l.seq = s.last
      WHERE s.first IS NULL OR e.seq = s.first
      ORDER BY e.session_id, e.seq;
    `)
    moveWords(db)
    db.exec(`
      DROP TABLE session_events;
      ALTER TABLE session_log RENAME TO session_events;
      CREATE INDEX session_events_by_session ON session_events (session_id);
      CREATE INDEX session_events_by_key ON session_events (session_id, key)
        WHERE key IS NOT NULL;
      UPDATE sessions SET size_bytes = (
        SELECT coalesce(sum(octet_length(payload) + coalesce(octet_length(text), 0)), 0)
        FROM session_events WHERE session_id = sessions.id
      );
    `)
  }
}

/** Re-encodes the message rows copied from version 2, whose words were in both columns. */
function moveWords(db: Database.Database): void {
  const select = db.prepare<[number], { seq: number; kind: string; payload: string }>(
    `SELECT seq, kind, payload FROM session_log
     WHERE seq > ? AND kind = 'transcript.item' AND json_valid(payload)
       AND json_extract(payload, '$.item.kind') IN ('user', 'assistant')
     ORDER BY seq LIMIT ${BATCH}`
  )
  const update = db.prepare('UPDATE session_log SET payload = ?, text = ? WHERE seq = ?')
  for (let after = 0; ;) {
    const rows = select.all(after)
    const last = rows.at(-1)
    if (!last) return
    for (const row of rows) {
      const encoded = encodeEvent(row.kind, JSON.parse(row.payload) as Record<string, unknown>)
      update.run(encoded.payload, encoded.text, row.seq)
    }
    after = last.seq
  }
}
