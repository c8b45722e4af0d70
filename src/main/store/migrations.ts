import type Database from 'better-sqlite3'
import { memoryProvenanceMigration } from './memory-provenance-migration'
import { sessionLogMigration } from './session-log-migration'
import { sessionsMigration } from './sessions-migration'
import { sessionTurnMigration } from './session-turn-migration'

/** One schema change. Applied once, in order, inside a transaction; never edited once shipped. */
export interface Migration {
  readonly version: number
  readonly name: string
  up(db: Database.Database): void
}

/**
 * Memory: entries keyed by (owner, name) hold the current state; every change is a row of
 * `memory_revisions`, so history is never lost. An owner is a project folder or the user model.
 * `memory_fts` indexes only live entries (a forgotten one has no content), over the entries
 * table itself (external content), kept in step by triggers so no code path can forget to.
 */
const memory: Migration = {
  version: 1,
  name: 'memory',
  up(db) {
    db.exec(`
      CREATE TABLE memory_owners (
        id INTEGER PRIMARY KEY,
        scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
        -- The canonical project folder; '' for the user model, which every project shares.
        project TEXT NOT NULL,
        UNIQUE (scope, project)
      );

      CREATE TABLE memory_entries (
        -- owner id * 2^32 + n: each owner's entries are one block of ids, so one scope's
        -- search is a rowid range inside the FTS index, which FTS5 seeks to directly.
        id INTEGER PRIMARY KEY,
        owner_id INTEGER NOT NULL REFERENCES memory_owners (id),
        name TEXT NOT NULL COLLATE NOCASE,
        -- The current content; NULL while the entry holds nothing (forgotten, or undone away).
        content TEXT,
        -- The current revision's opaque version, copied here so reads need no extra lookup.
        version TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (owner_id, name)
      );
      CREATE INDEX memory_entries_recent ON memory_entries (owner_id, updated_at DESC);

      CREATE TABLE memory_revisions (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE,
        version TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('remember', 'forget', 'undo')),
        -- The state this revision leaves the entry in; NULL means it holds nothing.
        content TEXT,
        -- The session whose model made the change; NULL when a person made it in the window.
        session_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX memory_revisions_by_entry ON memory_revisions (entry_id, id);

      CREATE VIRTUAL TABLE memory_fts USING fts5 (
        name, content,
        content = 'memory_entries', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      -- A word in the name counts four times one in the content.
      INSERT INTO memory_fts (memory_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0)');

      CREATE TRIGGER memory_entries_ai AFTER INSERT ON memory_entries
      WHEN new.content IS NOT NULL BEGIN
        INSERT INTO memory_fts (rowid, name, content) VALUES (new.id, new.name, new.content);
      END;
      CREATE TRIGGER memory_entries_ad AFTER DELETE ON memory_entries
      WHEN old.content IS NOT NULL BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, name, content)
        VALUES ('delete', old.id, old.name, old.content);
      END;
      CREATE TRIGGER memory_entries_au AFTER UPDATE OF content, name ON memory_entries BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, name, content)
        SELECT 'delete', old.id, old.name, old.content WHERE old.content IS NOT NULL;
        INSERT INTO memory_fts (rowid, name, content)
        SELECT new.id, new.name, new.content WHERE new.content IS NOT NULL;
      END;
    `)
  }
}

/**
 * Every migration, in order. Append only: sessions and transcripts come as version 2 and on.
 * A database newer than this list (opened by an older build) is refused rather than guessed at.
 */
export const migrations: readonly Migration[] = [
  memory,
  sessionsMigration,
  sessionLogMigration,
  sessionTurnMigration,
  memoryProvenanceMigration
]
