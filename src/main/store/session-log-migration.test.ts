import { statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import { peekSession } from '../agent/session-peek'
import { rehydrate } from '../agent/session-rehydrate'
import { openDatabase } from './database'
import { migrations } from './migrations'
import type { StoredEvent } from './session-log'
import { openStore, storePath } from './store'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-log-migration-'))
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

/** Words that must come back exactly: quotes, escapes, emoji, a lone surrogate, JSON-ish text. */
const TRICKY = 'He said "null" \\ then {"item":1} 🚀 and a lone \ud800 half, ünïcode.'

const call = (state: ToolCallView['state'], text: string): ToolCallView => ({
  id: 'c1',
  name: 'Read',
  input: { path: 'a.txt' },
  state,
  readOnly: true,
  capabilities: null,
  startedAt: 5,
  endedAt: state === 'running' ? null : 6,
  output: text ? { content: [{ type: 'text', text }], isError: false, external: false } : null,
  refusedBy: null
})

type OldEvent = { kind: string; key?: string | null; payload: Record<string, unknown> }

const item = (value: TranscriptItem, key: string | null = keyOf(value)): OldEvent => ({
  kind: 'transcript.item',
  key,
  payload: { item: value }
})

function keyOf(value: TranscriptItem): string {
  if (value.kind === 'tool') return `tool:${value.call.id}`
  if (value.kind === 'turn-end') return `turn-end:${value.turnId}`
  return `${value.kind}:${value.id}`
}

const reply = (text: string, streaming: boolean): TranscriptItem => ({
  kind: 'assistant',
  id: 'a1',
  turnId: 't1',
  text,
  at: 2,
  streaming
})

/** A session as version 2 recorded it: every partial save and card change a row of its own. */
function oldSession(answer: string, finished: boolean): OldEvent[] {
  const events: OldEvent[] = [
    { kind: 'turn.started', payload: { turnId: 't1' } },
    item({ kind: 'user', id: 'u1', text: TRICKY, at: 1 }),
    item(reply('', true))
  ]
  for (let n = 1; n <= 40; n++) events.push(item(reply(answer.slice(0, n * 100), true)))
  if (!finished) return events
  events.push(item(reply(answer, false)))
  events.push(item({ kind: 'tool', turnId: 't1', call: call('running', '') }))
  events.push({ kind: 'todo.updated', payload: { items: [{ text: 'read', status: 'done' }] } })
  events.push(item({ kind: 'tool', turnId: 't1', call: call('done', 'alpha\n'.repeat(50)) }))
  // Recorded before items had keys: read back by the item's own key.
  events.push(item({ kind: 'user', id: 'u0', text: '', at: 3 }, null))
  events.push(
    item({
      kind: 'turn-end',
      turnId: 't1',
      usage: { inputTokens: 1, outputTokens: 2, cachedTokens: 0 },
      stopReason: 'end_turn',
      error: null,
      at: 9
    })
  )
  events.push({ kind: 'turn.completed', payload: { turnId: 't1', stopReason: 'end_turn' } })
  return events
}

/** Writes a database in the version 2 layout, as the recorder before the linear log did. */
function writeOldDatabase(sessions: Record<string, OldEvent[]>): void {
  const database = openDatabase(
    storePath(dir),
    migrations.filter((m) => m.version <= 2)
  )
  const db = database.db
  const row = db.prepare(
    `INSERT INTO sessions (id, workspace, title, created_at, updated_at, message_count, size_bytes)
     VALUES (?, '/work/project', ?, 1, 1, 2, ?)`
  )
  const event = db.prepare(
    `INSERT INTO session_events (session_id, seq, at, kind, key, payload, text)
     VALUES (?, ?, ?, ?, ?, ?, ?)`
  )
  for (const [id, events] of Object.entries(sessions)) {
    const payloads = events.map((e) => JSON.stringify(e.payload))
    row.run(
      id,
      `Session ${id}`,
      payloads.reduce((sum, p) => sum + Buffer.byteLength(p), 0)
    )
    events.forEach((e, n) => {
      const shown = (e.payload.item as TranscriptItem | undefined) ?? null
      const text = shown?.kind === 'user' || shown?.kind === 'assistant' ? shown.text : null
      event.run(id, n + 1, 100 + n, e.kind, e.key ?? null, payloads[n], text)
    })
  }
  database.close()
}

/** How version 2 read a session back: every row, in order. */
function oldEvents(events: OldEvent[]): StoredEvent[] {
  return events.map((e, n) => ({
    seq: n + 1,
    at: 100 + n,
    kind: e.kind,
    key: e.key ?? null,
    payload: JSON.parse(JSON.stringify(e.payload)) as Record<string, unknown>
  }))
}

describe('migrating a version 2 session log', () => {
  it('folds each item to one row in its latest state; every session reads back the same', () => {
    const answer = `The answer: ${TRICKY} `.repeat(50)
    const old = { done: oldSession(answer, true), cut: oldSession(answer, false) }
    writeOldDatabase(old)
    const oldBytes = statSync(storePath(dir)).size

    const store = openStore(dir)
    try {
      expect(store.database.version()).toBe(migrations.at(-1)?.version)
      // What the fold freed is given back to the disk, not kept as free pages.
      expect(store.database.db.pragma('freelist_count', { simple: true })).toBe(0)
      expect(statSync(storePath(dir)).size).toBeLessThan(oldBytes / 2)
      for (const [id, events] of Object.entries(old)) {
        const stored = store.sessions.events(id)
        expect(rehydrate(stored)).toEqual(rehydrate(oldEvents(events)))
        // The first screen, from the outline, is the same (the turns read from their column).
        const { transcript } = rehydrate(stored)
        expect(peekSession(store.sessions, id, 2)?.transcript).toEqual(transcript.slice(-2))
        expect(peekSession(store.sessions, id, 50)?.total).toBe(transcript.length)
        const keys = stored.filter((e) => e.kind === 'transcript.item').map((e) => e.key)
        expect(new Set(keys).size).toBe(keys.length)
        // The size is the bytes still held, a fraction of what every partial save took.
        const before = events.reduce(
          (sum, e) => sum + Buffer.byteLength(JSON.stringify(e.payload)),
          0
        )
        const held = store.sessions.get(id)?.sizeBytes ?? 0
        expect(held).toBeGreaterThan(0)
        expect(held).toBeLessThan(before / 3)
      }
      const done = rehydrate(store.sessions.events('done')).transcript
      expect(done.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'user', 'turn-end'])
      expect(done[0]).toMatchObject({ text: TRICKY })
      expect(done[1]).toMatchObject({ text: answer, streaming: false })
      expect(rehydrate(store.sessions.events('done')).todos).toEqual([
        { text: 'read', status: 'done' }
      ])
      const cut = rehydrate(store.sessions.events('cut')).transcript
      expect(cut.map((i) => (i.kind === 'turn-end' ? i.stopReason : i.kind))).toEqual([
        'user',
        'assistant',
        'interrupted'
      ])
      expect(cut[1]).toMatchObject({ text: answer.slice(0, 4000), streaming: false })

      // Search still reads the words, once per session.
      const hits = store.sessions.search('/work/project', 'the answer')
      expect(hits.map((h) => h.session.id).sort()).toEqual(['cut', 'done'])

      // The migrated log goes on as the new one: a change replaces its item's row.
      const final = reply('Replaced.', false)
      store.sessions.append('cut', {
        kind: 'transcript.item',
        key: 'assistant:a1',
        payload: { item: final }
      })
      const after = rehydrate(store.sessions.events('cut')).transcript
      expect(after[1]).toEqual(final)
      expect(store.sessions.delete('done')).toBe(true)
      expect(store.sessions.events('done')).toEqual([])
    } finally {
      store.close()
    }
  })
})
