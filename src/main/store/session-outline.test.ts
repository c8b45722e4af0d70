import Database from 'better-sqlite3'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import { emptyTotals, totalsOf } from '../../shared/meters'
import { rehydrate } from '../agent/session-rehydrate'
import { openStore, storePath, type Store } from './store'

let dir: string
let store: Store

function summary(id: string): SessionSummary {
  return {
    id,
    workspace: '/work/project',
    title: id,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    model: null,
    running: false
  }
}

const reply = (id: string, turnId: string, text: string): TranscriptItem => ({
  kind: 'assistant',
  id,
  turnId,
  text,
  at: 2,
  streaming: false
})
const end = (turnId: string, inputTokens: number): TranscriptItem => ({
  kind: 'turn-end',
  turnId,
  usage: { inputTokens, outputTokens: 1, cachedTokens: 0 },
  stopReason: 'end_turn',
  error: null,
  at: 3
})
const record = (id: string, item: TranscriptItem, key: string): void => {
  store.sessions.append(id, { kind: 'transcript.item', key, payload: { item } })
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-outline-'))
  store = openStore(dir)
  store.sessions.saveSummary(summary('s1'))
  store.sessions.saveSummary(summary('s2'))
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

describe('a session log outline', () => {
  it('leaves out the bodies of replies and calls, but keeps their turns', () => {
    record('s1', { kind: 'user', id: 'u1', text: 'hello', at: 1 }, 'user:u1')
    record('s1', reply('a1', 't1', 'a long answer'), 'assistant:a1')
    store.sessions.append('s1', {
      kind: 'message.delta',
      key: 'assistant:a1',
      payload: { delta: 'x' }
    })
    record('s1', end('t1', 5), 'turn-end:t1')
    const rows = store.sessions.outline('s1')
    expect(rows.map((r) => [r.kind, r.key, r.turnId, r.payload === null])).toEqual([
      ['transcript.item', 'user:u1', null, false],
      ['transcript.item', 'assistant:a1', 't1', true],
      ['message.delta', 'assistant:a1', null, true],
      ['transcript.item', 'turn-end:t1', null, false]
    ])
    // A user message is placed by its parent: its words stay in the search column.
    expect(rows[0]?.payload).toEqual({ item: { kind: 'user', id: 'u1', text: null, at: 1 } })
    // The rows asked for come whole, only those, only of that session.
    const seqs = rows.map((r) => r.seq)
    expect(store.sessions.rows('s1', [seqs[1] ?? 0])).toEqual([
      expect.objectContaining({
        key: 'assistant:a1',
        payload: { item: reply('a1', 't1', 'a long answer') }
      })
    ])
    expect(store.sessions.rows('s2', seqs)).toEqual([])
  })

  it('is read again after any change: its own writes, a deletion, another process', () => {
    record('s1', reply('a1', 't1', 'one'), 'assistant:a1')
    const first = store.sessions.outline('s1')
    expect(store.sessions.outline('s1')).toBe(first)
    // A reply changing in place keeps the row count; the turn follows the new state.
    record('s1', reply('a1', 't9', 'one, changed'), 'assistant:a1')
    expect(store.sessions.outline('s1').map((r) => r.turnId)).toEqual(['t9'])
    expect(store.sessions.outline('s2')).toEqual([])
    expect(store.sessions.outline('s1')).toHaveLength(1)

    const other = new Database(storePath(dir))
    try {
      other.prepare("UPDATE session_events SET turn = 't7' WHERE session_id = 's1'").run()
    } finally {
      other.close()
    }
    expect(store.sessions.outline('s1').map((r) => r.turnId)).toEqual(['t7'])
    store.sessions.delete('s1')
    expect(store.sessions.outline('s1')).toEqual([])
  })

  it('totals a session from its turn ends as its loaded transcript adds up', () => {
    record('s1', reply('a1', 't1', 'one'), 'assistant:a1')
    record('s1', end('t1', 5), 'turn-end:t1')
    record('s1', end('t2', 7), 'turn-end:t2')
    record('s1', end('t2', 8), 'turn-end:t2')
    const loaded = totalsOf(rehydrate(store.sessions.events('s1')).items)
    expect(store.sessions.totals('s1')).toEqual(loaded)
    expect(loaded.inputTokens).toBe(13)
    expect(store.sessions.totals('s2')).toEqual(emptyTotals())
  })
})
