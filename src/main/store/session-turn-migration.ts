import type { Migration } from './migrations'

/**
 * Each reply's and tool call's turn in a column of its own (`turn`), so a long session's first
 * screen can place its items (see SessionLog.outline) without SQLite parsing the JSON of every
 * tool output in the log to find the turn inside it. Rows already recorded get theirs from their
 * payload; a row whose payload is not valid JSON keeps none (reading it whole says so).
 *
 * The outline reads its columns from an index that holds them (session_events_outline), never
 * the rows themselves, whose replies and tool outputs are most of the file. It starts with the
 * session, so it also serves every lookup the older index by session alone did.
 */
export const sessionTurnMigration: Migration = {
  version: 4,
  name: 'session event turns',
  up(db) {
    db.exec(`
      ALTER TABLE session_events ADD COLUMN turn TEXT;
      UPDATE session_events SET turn = json_extract(payload, '$.item.turnId')
      WHERE kind = 'transcript.item' AND json_valid(payload)
        AND json_type(payload, '$.item.turnId') = 'text';
      CREATE INDEX session_events_outline ON session_events (session_id, seq, at, kind, key, turn);
      DROP INDEX session_events_by_session;
    `)
  }
}
