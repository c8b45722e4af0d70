import type { Migration } from './migrations'

/**
 * Sessions: one row per session (what the list shows, kept current by `session.updated`) and
 * its events, append-only, in the order they happened. A transcript item changing state (a tool
 * call running, then done) is appended again under the same `key`; the latest per key wins when
 * the transcript is read back. `text` holds a message's words, for search. (Version 3 makes
 * the log linear: see session-log-migration.ts.)
 */
export const sessionsMigration: Migration = {
  version: 2,
  name: 'sessions',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        workspace TEXT NOT NULL,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        provider_id TEXT,
        model TEXT,
        message_count INTEGER NOT NULL DEFAULT 0,
        size_bytes INTEGER NOT NULL DEFAULT 0,
        -- Taint only widens, so a resumed session keeps what entered it before.
        taint_private INTEGER NOT NULL DEFAULT 0,
        taint_untrusted INTEGER NOT NULL DEFAULT 0,
        planning INTEGER NOT NULL DEFAULT 0,
        forked_from TEXT
      );
      CREATE INDEX sessions_by_workspace ON sessions (workspace, updated_at DESC);

      CREATE TABLE session_events (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        -- The event's name as the hub emits it: transcript.item, turn.started, todo.updated...
        kind TEXT NOT NULL,
        -- transcript.item: the item's key (see transcriptKey); NULL for other events.
        key TEXT,
        payload TEXT NOT NULL,
        text TEXT,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;
    `)
  }
}
