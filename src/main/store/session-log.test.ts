import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import { rehydrate } from '../agent/session-rehydrate'
import { openStore, type Store } from './store'

let dir: string
let store: Store

function summary(id: string): SessionSummary {
  return {
    id,
    workspace: '/work/project',
    title: `Session ${id}`,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    model: null,
    running: false
  }
}

const reply = (id: string, text: string, streaming: boolean): TranscriptItem => ({
  kind: 'assistant',
  id,
  turnId: 't1',
  text,
  at: 2,
  streaming
})

const card = (id: string, output: string): TranscriptItem => ({
  kind: 'tool',
  turnId: 't1',
  call: {
    id,
    name: 'Read',
    input: { path: `${id}.txt` },
    state: output ? 'done' : 'running',
    readOnly: true,
    capabilities: null,
    startedAt: 3,
    endedAt: output ? 4 : null,
    output: output
      ? { content: [{ type: 'text', text: output }], isError: false, external: false }
      : null,
    refusedBy: null
  }
})

function put(sessionId: string, item: TranscriptItem): void {
  const key =
    item.kind === 'tool'
      ? `tool:${item.call.id}`
      : `${item.kind}:${'id' in item ? item.id : item.turnId}`
  expect(
    store.sessions.append(sessionId, { kind: 'transcript.item', key, payload: { item } })
  ).toBe(true)
}

function delta(sessionId: string, id: string, text: string): void {
  store.sessions.append(sessionId, {
    kind: 'message.delta',
    key: `assistant:${id}`,
    payload: { turnId: 't1', messageId: id, delta: text }
  })
}

/** The rows as stored, and the bytes they hold. */
function rows(
  sessionId: string
): { kind: string; key: string | null; payload: string; text: string | null }[] {
  return store.database.db
    .prepare(
      'SELECT kind, key, payload, text FROM session_events WHERE session_id = ? ORDER BY seq'
    )
    .all(sessionId) as { kind: string; key: string | null; payload: string; text: string | null }[]
}

/** The session's items (without the turn end that reading adds: these turns never ended). */
function shown(sessionId: string): TranscriptItem[] {
  return rehydrate(store.sessions.events(sessionId)).transcript.filter((i) => i.kind !== 'turn-end')
}

function held(sessionId: string): number {
  return rows(sessionId).reduce(
    (sum, row) => sum + Buffer.byteLength(row.payload) + Buffer.byteLength(row.text ?? ''),
    0
  )
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-session-log-'))
  store = openStore(dir)
  store.sessions.saveSummary(summary('s1'))
  store.sessions.saveSummary(summary('s2'))
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

describe('the linear session log', () => {
  it('replaces an item that changes in place, so it keeps the place it first had', () => {
    put('s1', card('c1', ''))
    put('s1', card('c2', ''))
    put('s1', card('c2', 'second result'))
    put('s1', card('c1', 'first result '.repeat(100)))
    expect(rows('s1').map((r) => r.key)).toEqual(['tool:c1', 'tool:c2'])
    expect(shown('s1')).toEqual([
      card('c1', 'first result '.repeat(100)),
      card('c2', 'second result')
    ])
    expect(store.sessions.get('s1')?.sizeBytes).toBe(held('s1'))
    // A state that shrinks gives its bytes back.
    put('s1', card('c1', 'short'))
    expect(store.sessions.get('s1')?.sizeBytes).toBe(held('s1'))
  })

  it('keeps a streaming reply as deltas until its final state folds them away', () => {
    put('s1', reply('a1', '', true))
    for (const piece of ['Hel', 'lo, ', 'world']) delta('s1', 'a1', piece)
    put('s1', card('c1', ''))
    expect(rows('s1').map((r) => r.kind)).toEqual([
      'transcript.item',
      'message.delta',
      'message.delta',
      'message.delta',
      'transcript.item'
    ])
    expect(shown('s1')[0]).toEqual(reply('a1', 'Hello, world', false))
    put('s1', reply('a1', 'Hello, world.', false))
    expect(rows('s1').map((r) => r.key)).toEqual(['assistant:a1', 'tool:c1'])
    expect(shown('s1')[0]).toEqual(reply('a1', 'Hello, world.', false))
    expect(store.sessions.get('s1')?.sizeBytes).toBe(held('s1'))
  })

  it('folds the deltas of a reply whose first row was never written', () => {
    delta('s1', 'a1', 'orphan ')
    delta('s1', 'a1', 'pieces')
    expect(shown('s1')).toEqual([])
    put('s1', reply('a1', 'orphan pieces', false))
    expect(rows('s1').map((r) => r.kind)).toEqual(['transcript.item'])
  })

  it('stores words once, and exactly, whatever they hold', () => {
    const words = [
      'plain words',
      '',
      'null',
      '"quoted" \\ {"item":{"text":null}}',
      '🚀 ünïcode \u2028 line separator',
      'a lone \ud800 high and \udfff low surrogate'
    ]
    words.forEach((text, n) => put('s1', { kind: 'user', id: `u${n}`, text, at: n }))
    const transcript = shown('s1')
    expect(transcript.map((i) => (i.kind === 'user' ? i.text : null))).toEqual(words)
    const stored = rows('s1')
    // Well-formed words live only in the search column; the payload keeps their place as null.
    expect(stored[0]).toMatchObject({ text: 'plain words' })
    expect(JSON.parse(stored[0]?.payload ?? '')).toEqual({
      item: { kind: 'user', id: 'u0', text: null, at: 0 }
    })
    // Words SQLite cannot hold exactly stay in the JSON; search gets a readable copy.
    expect(stored[5]?.text).toBe('a lone \ufffd high and \ufffd low surrogate')
    expect(store.sessions.search('/work/project', 'high and').map((h) => h.session.id)).toEqual([
      's1'
    ])
  })

  it('keeps each session to its own rows, even under the same keys', () => {
    put('s1', card('c1', 'one'))
    put('s2', card('c1', 'two'))
    put('s1', card('c1', 'one, changed'))
    expect(shown('s2')).toEqual([card('c1', 'two')])
    expect(shown('s1')).toEqual([card('c1', 'one, changed')])
  })

  it('ignores a delta that names no reply: a card is never written into', () => {
    put('s1', card('c1', 'result'))
    store.sessions.append('s1', {
      kind: 'message.delta',
      key: 'tool:c1',
      payload: { turnId: 't1', messageId: 'c1', delta: 'injected' }
    })
    store.sessions.append('s1', { kind: 'message.delta', key: null, payload: { delta: 5 } })
    expect(shown('s1')).toEqual([card('c1', 'result')])
  })
})
