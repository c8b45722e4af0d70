import { indexOfFolded } from '../../shared/fold-case'
import { markdownToPlain } from './markdown-plain'
import type { SessionSummary } from '../../shared/domain'
import type { StoreDatabase } from './database'
import { SessionLog, type NewEvent, type OutlineRow, type StoredEvent } from './session-log'
import { storedSessionTotals, storedTotals } from './session-totals'
import { tailOutline, type TailOutline } from './session-tail'
import { emptyTotals, type SessionTotals } from '../../shared/meters'
import { describeStoreFailure, RecordingError } from './store-failure'

export type { NewEvent, OutlineRow, StoredEvent } from './session-log'

/** A session's row: what the list shows without reading its events. */
export interface StoredSession extends SessionSummary {
  sizeBytes: number
  forkedFrom: string | null
}

/** A search hit: the session and the words around the first match. */
export interface SessionHit {
  session: StoredSession
  snippet: string
}

interface SessionRow {
  id: string
  workspace: string
  title: string
  created_at: number
  updated_at: number
  provider_id: string | null
  model: string | null
  message_count: number
  size_bytes: number
  taint_private: number
  taint_untrusted: number
  planning: number
  forked_from: string | null
}

const SNIPPET_RADIUS = 60

/**
 * Sessions and their event logs (linear: see SessionLog) in the data directory's database. Every
 * write is its own short transaction, so what was recorded before a crash is there after it. A
 * write that fails (a full disk, a read-only file) marks its session as not recordable, with the
 * reason, so the turn running in it can stop instead of going on unrecorded.
 */
export class SessionStore {
  private readonly failures = new Map<string, string>()
  private readonly log: SessionLog

  constructor(private readonly database: StoreDatabase) {
    this.log = new SessionLog(database)
  }

  /** Why the session's latest events could not be recorded, or null while they all were. */
  recordingFailure(sessionId: string): string | null {
    return this.failures.get(sessionId) ?? null
  }

  /** Forgets a recording failure, so a new turn tries again (the disk may have room now). */
  clearRecordingFailure(sessionId: string): void {
    this.failures.delete(sessionId)
  }

  /** Runs a write for a session; a failure marks the session and is thrown as a RecordingError. */
  private guarded<T>(sessionId: string, write: () => T): T {
    try {
      return write()
    } catch (error) {
      if (error instanceof RecordingError) throw error
      const reason = describeStoreFailure(error, this.database.db.name)
      this.failures.set(sessionId, reason)
      throw new RecordingError(reason, error)
    }
  }

  /** Creates or updates the session's row from its summary; size and fork origin are kept. */
  saveSummary(summary: SessionSummary, forkedFrom: string | null = null): void {
    this.guarded(summary.id, () => this.writeSummary(summary, forkedFrom))
  }

  private writeSummary(summary: SessionSummary, forkedFrom: string | null): void {
    this.database
      .prepare(
        `INSERT INTO sessions (id, workspace, title, created_at, updated_at, provider_id, model,
           message_count, taint_private, taint_untrusted, planning, forked_from)
         VALUES (@id, @workspace, @title, @createdAt, @updatedAt, @providerId, @model,
           @messageCount, @taintPrivate, @taintUntrusted, @planning, @forkedFrom)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title,
           updated_at = max(updated_at, excluded.updated_at), provider_id = excluded.provider_id,
           model = excluded.model, message_count = excluded.message_count,
           taint_private = max(taint_private, excluded.taint_private),
           taint_untrusted = max(taint_untrusted, excluded.taint_untrusted),
           planning = excluded.planning`
      )
      .run({
        id: summary.id,
        workspace: summary.workspace,
        title: summary.title,
        createdAt: summary.createdAt,
        updatedAt: summary.updatedAt,
        providerId: summary.model?.providerId ?? null,
        model: summary.model?.model ?? null,
        messageCount: summary.messageCount,
        taintPrivate: summary.taint?.privateData ? 1 : 0,
        taintUntrusted: summary.taint?.untrustedInput ? 1 : 0,
        planning: summary.planning ? 1 : 0,
        forkedFrom
      })
  }

  /**
   * Records one event (see SessionLog: a transcript item's new state replaces its row) and keeps
   * the session's size current; false if it has no row (its row could not be saved: the session
   * is then marked as not recordable).
   */
  append(sessionId: string, event: NewEvent): boolean {
    const at = event.at ?? Date.now()
    const appended = this.guarded(sessionId, () => this.log.write(sessionId, event, at))
    if (!appended && !this.failures.has(sessionId)) {
      this.failures.set(
        sessionId,
        `cannot record this session: it has no entry in ${this.database.db.name} (saving it failed when it started). Send your message again.`
      )
    }
    return appended
  }

  /** A whole session at once (a fork): its row and events, in one transaction. */
  insert(summary: SessionSummary, forkedFrom: string | null, events: readonly NewEvent[]): void {
    this.database.write(() => {
      this.saveSummary(summary, forkedFrom)
      for (const event of events) this.append(summary.id, event)
    })
  }

  get(sessionId: string): StoredSession | null {
    const row = this.database
      .prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?')
      .get(sessionId)
    return row ? fromRow(row) : null
  }

  /** A folder's sessions that hold at least one message, latest activity first. */
  list(workspace: string): StoredSession[] {
    const totals = storedTotals(this.database, workspace)
    return this.database
      .prepare<[string], SessionRow>(
        `SELECT * FROM sessions WHERE workspace = ? AND message_count > 0
         ORDER BY updated_at DESC`
      )
      .all(workspace)
      .map((row) => ({ ...fromRow(row), totals: totals.get(row.id) ?? emptyTotals() }))
  }

  /** Every recorded session of every folder, latest first (the CLI's id-prefix lookup). */
  listAll(): StoredSession[] {
    return this.database
      .prepare<[], SessionRow>('SELECT * FROM sessions ORDER BY updated_at DESC')
      .all()
      .map(fromRow)
  }

  /** The session's events in the order they happened (see SessionLog). */
  events(sessionId: string): StoredEvent[] {
    return this.log.events(sessionId)
  }

  /** A recorded session's totals, from its turn ends alone (as its loaded summary adds up). */
  totals(sessionId: string): SessionTotals {
    return storedSessionTotals(this.database, sessionId)
  }

  /** Runs reads of the store in one transaction, so they agree with each other. */
  read<T>(fn: () => T): T {
    return this.database.read(fn)
  }

  /**
   * The session's events without the bodies of its replies and calls (see SessionLog); kept
   * while the file is unchanged, so it must not be changed by the caller.
   */
  outline(sessionId: string): readonly OutlineRow[] {
    return this.log.outline(sessionId)
  }

  /**
   * The newest part of a session with no branches, cut before a turn so that its `tail` newest
   * items are in it, with counts of the rest (see TailOutline); null when it cannot be so cut.
   */
  tailOutline(sessionId: string, tail: number): TailOutline | null {
    return tailOutline(this.database, sessionId, tail)
  }

  /** The session's whole events at the given places of its log (`seq`), in order. */
  rows(sessionId: string, seqs: readonly number[]): StoredEvent[] {
    return this.log.rows(sessionId, seqs)
  }

  rename(sessionId: string, title: string): boolean {
    return (
      this.database.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(title, sessionId)
        .changes > 0
    )
  }

  /** Removes the session and its events; false when there was none. */
  delete(sessionId: string): boolean {
    this.log.forget()
    return this.database.write(
      () => this.database.prepare('DELETE FROM sessions WHERE id = ?').run(sessionId).changes > 0
    )
  }

  /**
   * Sessions of a folder whose title or message text contains `query` (case-insensitive for
   * ASCII), latest first, each with the words around its first match.
   */
  search(workspace: string, query: string, limit = 50): SessionHit[] {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    const rows = this.database
      .prepare<
        [{ pattern: string; workspace: string; limit: number }],
        SessionRow & { hit: string | null }
      >(
        `SELECT s.*, (SELECT e.text FROM session_events e WHERE e.session_id = s.id
             AND e.text LIKE @pattern ESCAPE '\\' ORDER BY e.seq LIMIT 1) AS hit
         FROM sessions s
         WHERE s.workspace = @workspace AND s.message_count > 0
           AND (s.title LIKE @pattern ESCAPE '\\' OR hit IS NOT NULL)
         ORDER BY s.updated_at DESC LIMIT @limit`
      )
      .all({ pattern, workspace, limit })
    return rows.map((row) => ({
      session: fromRow(row),
      snippet: snippetOf(row.hit ?? row.title, query)
    }))
  }
}

function fromRow(row: SessionRow): StoredSession {
  return {
    id: row.id,
    workspace: row.workspace,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
    model:
      row.provider_id !== null && row.model !== null
        ? { providerId: row.provider_id, model: row.model }
        : null,
    running: false,
    taint: { privateData: row.taint_private === 1, untrustedInput: row.taint_untrusted === 1 },
    planning: row.planning === 1,
    sizeBytes: row.size_bytes,
    forkedFrom: row.forked_from
  }
}

/**
 * The words around the first (case-insensitive) occurrence of `query` in `text`, as plain text
 * (Markdown's marks taken out, as the transcript shows them), with the hit always whole: the
 * cuts fall between words near the edges, never inside the hit or inside a character.
 */
export function snippetOf(text: string, query: string): string {
  const plain = flatten(markdownToPlain(text))
  const needle = flatten(query)
  const candidates: [string, string][] = [
    [plain, needle],
    [plain, flatten(markdownToPlain(query))],
    // The search matched the stored text, marks included ("`npm test`"): show it as stored.
    [flatten(text), needle]
  ]
  for (const [source, hit] of candidates) {
    const at = hit ? indexOfFolded(source, hit) : -1
    if (at >= 0) return cutAround(source, at, at + hit.length)
  }
  return cutAround(plain, 0, 0)
}

function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** How far a cut may move to fall between two words rather than inside one. */
const WORD_SLACK = 16

/** `text` from about SNIPPET_RADIUS before `start` to about as far after `end`. */
function cutAround(text: string, start: number, end: number): string {
  const radius = start === end ? SNIPPET_RADIUS * 2 : SNIPPET_RADIUS
  let from = Math.max(0, start - radius)
  let to = Math.min(text.length, end + radius)
  if (from > 0) {
    const space = text.indexOf(' ', from)
    if (space >= 0 && space < start && space - from <= WORD_SLACK) from = space + 1
    else if (isLowSurrogate(text.charCodeAt(from))) from += 1
  }
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to)
    if (space >= end && to - space <= WORD_SLACK) to = space
    else if (isLowSurrogate(text.charCodeAt(to))) to -= 1
  }
  const shown = text.slice(from, to).trim()
  return `${from > 0 ? '…' : ''}${shown}${to < text.length ? '…' : ''}`
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
