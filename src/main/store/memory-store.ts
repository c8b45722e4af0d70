import { randomBytes } from 'node:crypto'
import type { MemoryDetail, MemoryEntry, MemoryRevision, MemoryScope } from '../../shared/memory'
import { isUntrusted, lessTrusted, type Provenance } from '../../shared/provenance'
import type { StoreDatabase } from './database'
import {
  ENTRY_COLUMNS,
  provenanceOf,
  REVISION_COLUMNS,
  toEntry,
  toRevision,
  writerOf,
  type EntryRow,
  type MemoryWriter,
  type NewRevision,
  type RevisionRow
} from './memory-rows'
import { rankMemories, type IdRange, type RankedRows } from './memory-search'

export type { MemoryWriter } from './memory-rows'

/** Whose memories: one project folder's (its canonical path), or the user model's. */
export interface MemoryOwner {
  readonly scope: MemoryScope
  /** The canonical project folder; '' for the user scope. */
  readonly project: string
}

export const userOwner: MemoryOwner = { scope: 'user', project: '' }

export function projectOwner(folder: string): MemoryOwner {
  return { scope: 'project', project: folder }
}

/** A search hit: the entry, its BM25 score (lower is better) and a snippet with marked hits. */
export interface MemoryHit {
  entry: MemoryEntry
  score: number
  snippet: string
}

/** The hits, best first, with how they were ranked (see rankMemories). */
export interface MemorySearch extends Omit<RankedRows, 'rows'> {
  hits: MemoryHit[]
}

export type RememberResult = {
  entry: MemoryEntry
  /**
   * `restored`: the entry held nothing (forgotten) and now holds this content. `vouched`: it held
   * these very words, untrusted, and a conversation with no untrusted input wrote them again, so
   * they are kept as that conversation's (it cannot have had them from the note, as reading it
   * would have made it untrusted): how a person clears the mark of a note they recognise.
   */
  change: 'created' | 'updated' | 'restored' | 'unchanged' | 'vouched'
  previous: MemoryEntry | null
}

/** Why Forget or Undo did not happen; `current` is the entry as it is, when there is one. */
export type MutationRefusal =
  | { reason: 'missing' }
  | { reason: 'stale'; current: MemoryEntry }
  | { reason: 'unknown-version'; current: MemoryEntry }
  | { reason: 'already-forgotten'; current: MemoryEntry }

export type MutationResult =
  { ok: true; entry: MemoryEntry; previous: MemoryEntry } | ({ ok: false } & MutationRefusal)

/**
 * A change made only at the version the caller last saw (Forget, Undo): refused when that is not
 * the entry's current one. `now` is when it is made.
 */
export type VersionedChange = (
  owner: MemoryOwner,
  name: string,
  expectedVersion: string,
  writer: MemoryWriter,
  now?: number
) => MutationResult

export type MemoryListener = (owner: MemoryOwner, name: string) => void

const ENTRY_FROM = `memory_entries e
  JOIN memory_owners o ON o.id = e.owner_id
  JOIN memory_revisions r ON r.version = e.version`
const OWNER_MATCH = 'o.scope = ? AND o.project = ?'
/** Entry ids of one owner: owner id * 2^32 + n (see the memory migration). */
const BLOCK = 2 ** 32

/**
 * Project memories and the user model, versioned. Every change is a new revision, so nothing is
 * lost: a forget is a tombstone and an undo a compensating revision. Forget and Undo take the
 * version the caller last saw and refuse when it is not the current one.
 */
export class MemoryStore {
  private readonly listeners = new Set<MemoryListener>()

  constructor(private readonly db: StoreDatabase) {}

  /** Told after every committed change. Returns a function that stops it. */
  onChange(listener: MemoryListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get(owner: MemoryOwner, name: string): MemoryEntry | null {
    const row = this.row(owner, name)
    return row ? toEntry(row) : null
  }

  /** Creates the entry or writes new content; the same content again changes nothing. */
  remember(
    owner: MemoryOwner,
    name: string,
    content: string,
    writer: MemoryWriter,
    now = Date.now()
  ): RememberResult {
    const origin = writerOf(writer)
    const result = this.db.write((): RememberResult => {
      const before = this.row(owner, name)
      const same = before !== undefined && before.content === content
      const vouched = same && isUntrusted(provenanceOf(before)) && !isUntrusted(origin)
      if (before && same && !vouched) {
        return { entry: toEntry(before), change: 'unchanged', previous: toEntry(before) }
      }
      const version = newVersion()
      let id: number
      if (before) {
        id = before.id
        this.setState(id, content, version, now)
      } else {
        const ownerId = this.ensureOwner(owner)
        const { low, high } = idRange(ownerId)
        const last = this.db
          .prepare<[number, number], { id: number | null }>(
            'SELECT max(id) AS id FROM memory_entries WHERE id BETWEEN ? AND ?'
          )
          .get(low, high)
        id = (last?.id ?? low) + 1
        this.db
          .prepare(
            `INSERT INTO memory_entries
               (id, owner_id, name, content, version, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`
          )
          .run(id, ownerId, name, content, version, now, now)
      }
      this.addRevision(id, version, { kind: 'remember', content, origin }, origin.sessionId, now)
      return {
        entry: this.current(owner, name),
        change: !before
          ? 'created'
          : vouched
            ? 'vouched'
            : before.content === null
              ? 'restored'
              : 'updated',
        previous: before ? toEntry(before) : null
      }
    })
    if (result.change !== 'unchanged') this.changed(owner, name)
    return result
  }

  /** Tombstones the entry: it keeps its history but is no longer found or recalled. */
  readonly forget: VersionedChange = (owner, name, expectedVersion, writer, now = Date.now()) =>
    this.mutate(owner, name, expectedVersion, writer, now, (before, origin) =>
      before.content === null ? 'already-forgotten' : { kind: 'forget', content: null, origin }
    )

  /**
   * Writes a revision restoring the state before the latest one: an update is rolled back, a
   * forget restored, a first remember leaves nothing, and an undo is itself undone (a redo).
   * The words brought back keep where they came from, made no more trusted by the undo.
   */
  readonly undo: VersionedChange = (owner, name, expectedVersion, writer, now = Date.now()) =>
    this.mutate(owner, name, expectedVersion, writer, now, (before, own) => {
      const prior = this.db
        .prepare<[number], RevisionRow>(
          `SELECT ${REVISION_COLUMNS} FROM memory_revisions r
           WHERE r.entry_id = ? ORDER BY r.id DESC LIMIT 1 OFFSET 1`
        )
        .get(before.id)
      const origin = prior ? lessTrusted(provenanceOf(prior), own) : own
      return { kind: 'undo', content: prior?.content ?? null, origin }
    })

  /** Live entries matching `query`, best first by BM25 (name words count more than content). */
  search(
    owner: MemoryOwner,
    query: string,
    options: { limit?: number; prefix?: boolean } = {}
  ): MemorySearch {
    const ownerId = this.ownerId(owner)
    if (ownerId === null) return { hits: [], ranking: 'bm25', dropped: [] }
    const { rows, ...how } = rankMemories(this.db, idRange(ownerId), query, {
      limit: options.limit ?? 10,
      prefix: options.prefix
    })
    const entry = this.db.prepare<[number], EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.id = ?`
    )
    const hits = rows.flatMap((row) => {
      const found = entry.get(row.id)
      return found ? [{ entry: toEntry(found), score: row.score, snippet: row.snippet }] : []
    })
    return { hits, ...how }
  }

  /** Every entry of the owner, forgotten ones too, most recently changed first. */
  list(owner: MemoryOwner, limit = 200): MemoryEntry[] {
    return this.db
      .prepare<[MemoryScope, string, number], EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM}
         WHERE ${OWNER_MATCH} ORDER BY e.updated_at DESC, e.id DESC LIMIT ?`
      )
      .all(owner.scope, owner.project, limit)
      .map(toEntry)
  }

  /** The entry with its latest `limit` revisions, newest first; null when there is none. */
  inspect(owner: MemoryOwner, name: string, limit = 10): MemoryDetail | null {
    const row = this.row(owner, name)
    if (!row) return null
    const history = this.db
      .prepare<[number, number], RevisionRow>(
        `SELECT ${REVISION_COLUMNS} FROM memory_revisions r
         WHERE r.entry_id = ? ORDER BY r.id DESC LIMIT ?`
      )
      .all(row.id, limit)
      .map(toRevision)
    const count = this.db
      .prepare<[number], { n: number }>(
        'SELECT count(*) AS n FROM memory_revisions WHERE entry_id = ?'
      )
      .get(row.id)
    return { entry: toEntry(row), history, totalRevisions: count?.n ?? history.length }
  }

  /** The first revision of an entry: who created it, and when. */
  origin(owner: MemoryOwner, name: string): MemoryRevision | null {
    const row = this.db
      .prepare<[MemoryScope, string, string], RevisionRow>(
        `SELECT ${REVISION_COLUMNS}
         FROM memory_entries e
         JOIN memory_owners o ON o.id = e.owner_id
         JOIN memory_revisions r ON r.entry_id = e.id
         WHERE ${OWNER_MATCH} AND e.name = ? ORDER BY r.id LIMIT 1`
      )
      .get(owner.scope, owner.project, name)
    return row ? toRevision(row) : null
  }

  private mutate(
    owner: MemoryOwner,
    name: string,
    expectedVersion: string,
    writer: MemoryWriter,
    now: number,
    /** The revision to write, given the writer's provenance, or why there is none to write. */
    next: (before: EntryRow, writer: Provenance) => NewRevision | 'already-forgotten'
  ): MutationResult {
    const own = writerOf(writer)
    const result = this.db.write((): MutationResult => {
      const before = this.row(owner, name)
      if (!before) return { ok: false, reason: 'missing' }
      if (before.version !== expectedVersion) {
        const known = this.db
          .prepare<[string, number], { id: number }>(
            'SELECT id FROM memory_revisions WHERE version = ? AND entry_id = ?'
          )
          .get(expectedVersion, before.id)
        return { ok: false, reason: known ? 'stale' : 'unknown-version', current: toEntry(before) }
      }
      const change = next(before, own)
      if (change === 'already-forgotten') {
        return { ok: false, reason: change, current: toEntry(before) }
      }
      const version = newVersion()
      this.setState(before.id, change.content, version, now)
      this.addRevision(before.id, version, change, own.sessionId, now)
      return { ok: true, entry: this.current(owner, name), previous: toEntry(before) }
    })
    if (result.ok) this.changed(owner, name)
    return result
  }

  private row(owner: MemoryOwner, name: string): EntryRow | undefined {
    return this.db
      .prepare<[MemoryScope, string, string], EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE ${OWNER_MATCH} AND e.name = ?`
      )
      .get(owner.scope, owner.project, name)
  }

  private ownerId(owner: MemoryOwner): number | null {
    const row = this.db
      .prepare<[MemoryScope, string], { id: number }>(
        'SELECT id FROM memory_owners o WHERE ' + OWNER_MATCH
      )
      .get(owner.scope, owner.project)
    return row?.id ?? null
  }

  private ensureOwner(owner: MemoryOwner): number {
    const known = this.ownerId(owner)
    if (known !== null) return known
    const inserted = this.db
      .prepare('INSERT INTO memory_owners (scope, project) VALUES (?, ?)')
      .run(owner.scope, owner.project)
    return Number(inserted.lastInsertRowid)
  }

  private current(owner: MemoryOwner, name: string): MemoryEntry {
    const row = this.row(owner, name)
    if (!row) throw new Error(`memory "${name}" vanished inside its own transaction`)
    return toEntry(row)
  }

  private setState(id: number, content: string | null, version: string, now: number): void {
    this.db
      .prepare('UPDATE memory_entries SET content = ?, version = ?, updated_at = ? WHERE id = ?')
      .run(content, version, now, id)
  }

  private addRevision(
    id: number,
    version: string,
    { kind, content, origin }: NewRevision,
    sessionId: string | null,
    now: number
  ): void {
    this.db
      .prepare(
        `INSERT INTO memory_revisions (entry_id, version, kind, content, session_id, created_at,
           trust, origin_session, origin_folder)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        id,
        version,
        kind,
        content,
        sessionId,
        now,
        origin.trust,
        origin.sessionId,
        origin.folder
      )
  }

  private changed(owner: MemoryOwner, name: string): void {
    for (const listener of this.listeners) listener(owner, name)
  }
}

/**
 * A version the model can copy but not guess or derive: 96 random bits, base64url. Sequential
 * numbers would let a model "predict" the next version instead of reading the current one.
 */
function newVersion(): string {
  return randomBytes(12).toString('base64url')
}

function idRange(ownerId: number): IdRange {
  const low = ownerId * BLOCK
  return { low, high: low + BLOCK - 1 }
}
