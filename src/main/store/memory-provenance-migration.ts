import type Database from 'better-sqlite3'
import { lessTrusted, personProvenance, type Provenance } from '../../shared/provenance'
import type { Migration } from './migrations'

interface OldRevision {
  id: number
  entry_id: number
  kind: 'remember' | 'forget' | 'undo'
  session_id: string | null
  scope: 'project' | 'user'
  project: string
}

/**
 * Where each memory revision's words came from (see shared/provenance.ts): `trust`, and the
 * session and folder of the conversation that wrote them (`origin_*`; an undo's are those of the
 * words it brought back, or its own when it was the less trusted). A revision written from now
 * on says so itself; one written before is given what the sessions table still knows of its
 * writer: its conversation held untrusted input at some point (`taint_untrusted`, which only
 * ever grew, so a note written before it did counts as after), or not. A change a person made
 * in the window (no session) and `mecatl call` (session "cli") are a person's. A session since
 * deleted leaves `unknown`, which is untrusted: nobody can say what its conversation held.
 */
export const memoryProvenanceMigration: Migration = {
  version: 5,
  name: 'memory provenance',
  up(db) {
    db.exec(`
      ALTER TABLE memory_revisions ADD COLUMN trust TEXT NOT NULL DEFAULT 'unknown'
        CHECK (trust IN ('trusted', 'untrusted-input', 'untrusted-folder', 'unknown'));
      ALTER TABLE memory_revisions ADD COLUMN origin_session TEXT;
      ALTER TABLE memory_revisions ADD COLUMN origin_folder TEXT;
    `)
    backfill(db)
  }
}

function backfill(db: Database.Database): void {
  const revisions = db
    .prepare<[], OldRevision>(
      `SELECT r.id, r.entry_id, r.kind, r.session_id, o.scope, o.project
       FROM memory_revisions r
       JOIN memory_entries e ON e.id = r.entry_id
       JOIN memory_owners o ON o.id = e.owner_id
       ORDER BY r.entry_id, r.id`
    )
    .all()
  const session = db.prepare<[string], { workspace: string; taint_untrusted: number }>(
    'SELECT workspace, taint_untrusted FROM sessions WHERE id = ?'
  )
  const set = db.prepare(
    'UPDATE memory_revisions SET trust = ?, origin_session = ?, origin_folder = ? WHERE id = ?'
  )
  const writer = (revision: OldRevision): Provenance => {
    const id = revision.session_id
    if (id === null) return personProvenance
    const folder = revision.scope === 'project' ? revision.project : null
    if (id === 'cli') return { trust: 'trusted', sessionId: id, folder }
    const row = session.get(id)
    if (!row) return { trust: 'unknown', sessionId: id, folder }
    const trust = row.taint_untrusted === 1 ? 'untrusted-input' : 'trusted'
    return { trust, sessionId: id, folder: row.workspace }
  }
  let entry = -1
  let done: Provenance[] = []
  for (const revision of revisions) {
    if (revision.entry_id !== entry) {
      entry = revision.entry_id
      done = []
    }
    const own = writer(revision)
    // An undo restored the state before the latest revision of its time: the one two back.
    const restored = revision.kind === 'undo' ? done.at(-2) : undefined
    const origin = restored ? lessTrusted(restored, own) : own
    done.push(origin)
    set.run(origin.trust, origin.sessionId, origin.folder, revision.id)
  }
}
