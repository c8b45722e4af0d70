import type {
  MemoryEntry,
  MemoryRevision,
  MemoryRevisionKind,
  MemoryScope
} from '../../shared/memory'
import type { Provenance, ProvenanceTrust } from '../../shared/provenance'

// The memory tables' rows as the store selects them, and what they become: one place for the
// columns, so every read of an entry or a revision carries its provenance.

/**
 * Who writes a revision, as the provenance of their conversation (its session, its folder, and
 * whether untrusted input had entered it). A bare session id, or null, vouches for nothing about
 * the conversation, so what it writes is of unknown origin, which counts as untrusted.
 */
export type MemoryWriter = Provenance | string | null

export interface OriginColumns {
  trust: ProvenanceTrust
  origin_session: string | null
  origin_folder: string | null
}

export interface EntryRow extends OriginColumns {
  id: number
  scope: MemoryScope
  name: string
  version: string
  content: string | null
  created_at: number
  updated_at: number
  kind: MemoryRevisionKind
  session_id: string | null
}

export interface RevisionRow extends OriginColumns {
  version: string
  kind: MemoryRevisionKind
  content: string | null
  session_id: string | null
  created_at: number
}

// Each entry's latest revision is the one whose version it carries (versions are unique).
const ORIGIN_COLUMNS = 'r.trust, r.origin_session, r.origin_folder'
export const ENTRY_COLUMNS = `e.id, o.scope, e.name, e.version, e.content, e.created_at, e.updated_at,
  r.kind, r.session_id, ${ORIGIN_COLUMNS}`
export const REVISION_COLUMNS = `r.version, r.kind, r.content, r.session_id, r.created_at, ${ORIGIN_COLUMNS}`
/** A revision to write: what it did, the state it leaves, and where that state's words came from. */
export interface NewRevision {
  kind: MemoryRevisionKind
  content: string | null
  origin: Provenance
}

export function writerOf(writer: MemoryWriter): Provenance {
  if (writer !== null && typeof writer === 'object') return writer
  return { trust: 'unknown', sessionId: writer, folder: null }
}

export function provenanceOf(row: OriginColumns): Provenance {
  return { trust: row.trust, sessionId: row.origin_session, folder: row.origin_folder }
}

export function toEntry(row: EntryRow): MemoryEntry {
  return {
    scope: row.scope,
    name: row.name,
    version: row.version,
    state: row.content === null ? 'forgotten' : 'live',
    content: row.content,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastKind: row.kind,
    sessionId: row.session_id,
    provenance: provenanceOf(row)
  }
}

export function toRevision(row: RevisionRow): MemoryRevision {
  return {
    version: row.version,
    kind: row.kind,
    content: row.content,
    sessionId: row.session_id,
    at: row.created_at,
    provenance: provenanceOf(row)
  }
}
