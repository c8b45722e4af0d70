import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import { totalsOf } from '../../shared/meters'
import { transcriptKey } from '../agent/session'
import { openStore, type Store } from './store'

let dir: string
let store: Store

function summary(id: string, workspace = '/work/project'): SessionSummary {
  return {
    id,
    workspace,
    title: `Session ${id}`,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    model: null,
    running: false
  }
}

function turnEnd(
  turnId: string,
  usage: [input: number, output: number, cached: number],
  usd: number | null
): TranscriptItem {
  return {
    kind: 'turn-end',
    turnId,
    usage: { inputTokens: usage[0], outputTokens: usage[1], cachedTokens: usage[2] },
    cost: usd === null ? null : { usd, source: 'settings' },
    stopReason: 'end_turn',
    error: null,
    at: 5
  }
}

function put(sessionId: string, item: TranscriptItem): void {
  const key = transcriptKey(item)
  expect(
    store.sessions.append(sessionId, { kind: 'transcript.item', key, payload: { item } })
  ).toBe(true)
}

function totals(sessionId: string, workspace = '/work/project'): SessionSummary['totals'] {
  return store.sessions.list(workspace).find((s) => s.id === sessionId)?.totals
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-session-totals-'))
  store = openStore(dir)
  store.sessions.saveSummary(summary('s1'))
  store.sessions.saveSummary(summary('s2'))
  store.sessions.saveSummary(summary('elsewhere', '/work/other'))
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

describe('session totals in the list', () => {
  it('adds up the turn ends of each session as the live session would', () => {
    const items: TranscriptItem[] = [
      { kind: 'user', id: 'u1', text: 'hi', at: 1 },
      turnEnd('t1', [1200, 40, 1000], 0.0012),
      { kind: 'user', id: 'u2', text: 'again', at: 2 },
      turnEnd('t2', [1300, 10, 1200], null)
    ]
    for (const item of items) put('s1', item)
    put('s2', turnEnd('t9', [5, 5, 0], 0.5))
    put('elsewhere', turnEnd('t1', [99, 99, 99], 9))
    expect(totals('s1')).toEqual(totalsOf(items))
    expect(totals('s1')).toMatchObject({
      inputTokens: 2500,
      outputTokens: 50,
      cachedTokens: 2200,
      pricedTurns: 1,
      unpricedTurns: 1
    })
    expect(totals('s1')?.usd).toBeCloseTo(0.0012, 10)
    expect(totals('s2')).toMatchObject({ inputTokens: 5, usd: 0.5, pricedTurns: 1 })
    expect(totals('elsewhere', '/work/other')).toMatchObject({ inputTokens: 99, usd: 9 })
  })

  it('counts a turn end written twice (its state replaced) once', () => {
    put('s1', turnEnd('t1', [10, 1, 0], null))
    put('s1', turnEnd('t1', [100, 10, 50], 0.25))
    expect(totals('s1')).toMatchObject({ inputTokens: 100, cachedTokens: 50, usd: 0.25 })
    expect(totals('s1')).toMatchObject({ pricedTurns: 1, unpricedTurns: 0 })
  })

  it('leaves out turn ends that were no request, and figures that are not numbers', () => {
    put('s1', turnEnd('fork', [0, 0, 0], null))
    // A malformed row (by hand, or a future format) counts what it can and fails nothing.
    store.sessions.append('s1', {
      kind: 'transcript.item',
      key: 'turn-end:odd',
      payload: { item: { kind: 'turn-end', usage: { inputTokens: '7', outputTokens: 3 } } }
    })
    // Text that looks like a turn end but is a message is not one.
    put('s1', { kind: 'user', id: 'turn-end:x', text: 'turn-end:x', at: 3 })
    expect(totals('s1')).toEqual({
      inputTokens: 0,
      outputTokens: 3,
      cachedTokens: 0,
      usd: 0,
      pricedTurns: 0,
      unpricedTurns: 1
    })
  })

  it('reads only turn-end rows, through the key index', () => {
    const plan = store.database.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT e.payload FROM sessions s JOIN session_events e
         ON e.session_id = s.id WHERE s.workspace = ? AND e.key IS NOT NULL
         AND e.key >= 'turn-end:' AND e.key < 'turn-end;'`
      )
      .all('/work/project') as { detail: string }[]
    expect(plan.map((row) => row.detail).join('\n')).toMatch(
      /session_events_by_key \(session_id=\? AND key>\? AND key<\?\)/
    )
  })
})
