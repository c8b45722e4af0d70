import Database from 'better-sqlite3'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import type { NewEvent } from '../store/session-store'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { transcriptKey } from './session'

const item = (i: TranscriptItem): NewEvent => ({
  kind: 'transcript.item',
  key: transcriptKey(i),
  payload: { item: i },
  text: i.kind === 'user' || i.kind === 'assistant' ? i.text : null,
  at: 10
})
const user = (id: string, text: string, parent?: string | null): NewEvent =>
  item({ kind: 'user', id, text, at: 10, ...(parent === undefined ? {} : { parent }) })
const reply = (id: string, turnId: string, text: string, streaming = false): NewEvent =>
  item({ kind: 'assistant', id, turnId, text, at: 10, streaming })
const call = (id: string, turnId: string, done: boolean): NewEvent =>
  item({
    kind: 'tool',
    turnId,
    call: {
      id,
      name: 'Read',
      input: { path: 'a.txt' },
      state: done ? 'done' : 'running',
      readOnly: true,
      capabilities: {
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      },
      startedAt: 10,
      endedAt: done ? 11 : null,
      output: done
        ? {
            content: [{ type: 'text', text: 'alpha\n'.repeat(50) }],
            isError: false,
            external: false
          }
        : null,
      refusedBy: null
    }
  })
const end = (turnId: string, input: number, usd?: number): NewEvent =>
  item({
    kind: 'turn-end',
    turnId,
    usage: { inputTokens: input, outputTokens: 7, cachedTokens: 3 },
    ...(usd === undefined ? {} : { cost: { usd, source: 'table' as const } }),
    stopReason: 'end_turn',
    error: null,
    at: 10
  })
const event = (kind: string, payload: Record<string, unknown>, key?: string): NewEvent => ({
  kind,
  payload,
  ...(key ? { key } : {}),
  at: 20
})

/**
 * Two branches from the first message; the newer one's turn was cut off mid-reply (a delta after
 * its streaming reply, a call left running, no turn end); a plan; a file-less, untrusted profile.
 */
function branchyLog(choose: boolean): NewEvent[] {
  return [
    event('turn.started', { turnId: 't1' }),
    user('u1', 'first question'),
    reply('a1', 't1', 'first answer'),
    call('c1', 't1', true),
    end('t1', 100, 0.01),
    event('turn.started', { turnId: 't2' }),
    user('u2', 'second question', 'user:u1'),
    reply('a2', 't2', 'second answer'),
    end('t2', 200),
    event('turn.started', { turnId: 't3' }),
    user('u2b', 'second question, edited', 'user:u1'),
    reply('a3', 't3', 'partial', true),
    event('message.delta', { delta: ' and more' }, 'assistant:a3'),
    call('c3', 't3', false),
    event('todo.updated', { items: [{ text: 'check a.txt', status: 'in_progress' }] }),
    event('session.updated', { profile: 'no-fs', folderTrust: 'untrusted' }),
    ...(choose
      ? [
          event('branch.selected', { parent: 'user:u1', child: 'user:u2' }),
          event('turn.started', { turnId: 't4' }),
          user('u4', 'third question', 'user:u2'),
          reply('a4', 't4', 'third answer'),
          call('c4', 't4', true),
          end('t4', 300, 0.02)
        ]
      : [])
  ]
}

function record(h: CoreHarness, id: string, events: NewEvent[]): string {
  const summary: SessionSummary = {
    id,
    workspace: h.workspace,
    title: id,
    createdAt: 1,
    updatedAt: 30,
    messageCount: 4,
    model: null,
    running: false,
    taint: { privateData: true, untrustedInput: false }
  }
  h.core.store.sessions.insert(summary, null, events)
  return id
}

const loaded = (h: CoreHarness, id: string): boolean =>
  h.core.sessions.list(h.workspace).some((s) => s.id === id)

// A long session's first screen is read from the log's outline and its newest rows only.
describe('session.get with a tail, on a session not loaded yet', () => {
  it('answers what the loaded session answers, without loading it', async () => {
    const h = await startCoreHarness({ name: 'session-peek' })
    const ids = [record(h, 'chosen', branchyLog(true)), record(h, 'cut-off', branchyLog(false))]
    for (const sessionId of ids) {
      for (const tail of [1, 2, 3, 4, 7, 50]) {
        h.core.sessions.drop(sessionId)
        const peeked = await h.client.call('session.get', { sessionId, tail })
        expect(loaded(h, sessionId)).toBe(false)
        h.core.sessions.get(sessionId)
        expect(loaded(h, sessionId)).toBe(true)
        const whole = await h.client.call('session.get', { sessionId, tail })
        expect(peeked).toEqual(whole)
      }
    }
    // What the comparison covers: the branch chosen, the interrupted turn closed on its own
    // branch, the meters of every branch, the plan and the recorded profile.
    h.core.sessions.drop('chosen')
    const chosen = await h.client.call('session.get', { sessionId: 'chosen', tail: 50 })
    expect(chosen.transcript.filter((i) => i.kind === 'user').map((i) => i.id)).toEqual([
      'u1',
      'u2',
      'u4'
    ])
    expect(chosen.session.totals).toMatchObject({
      inputTokens: 600,
      pricedTurns: 2,
      unpricedTurns: 1
    })
    expect(chosen.branches).toEqual([{ key: 'user:u2', siblings: ['user:u2', 'user:u2b'] }])
    expect(chosen.todos).toEqual([{ text: 'check a.txt', status: 'in_progress' }])
    expect(chosen.session).toMatchObject({ profile: 'no-fs', folderTrust: 'untrusted' })
    h.core.sessions.drop('cut-off')
    const cut = await h.client.call('session.get', { sessionId: 'cut-off', tail: 3 })
    expect(cut.transcript).toMatchObject([
      { kind: 'assistant', text: 'partial and more', streaming: false },
      { kind: 'tool', call: { id: 'c3', state: 'failed' } },
      { kind: 'turn-end', turnId: 't3', stopReason: 'interrupted' }
    ])
    expect(cut.total).toBe(8)
  })

  it('leaves the whole history to the first use: a send right after the peek has all of it', async () => {
    const h = await startCoreHarness({ name: 'session-peek-send', script: [{ text: 'Fourth.' }] })
    const sessionId = record(h, 'chosen', branchyLog(true).slice(0, 9))
    const first = await h.client.call('session.get', { sessionId, tail: 1 })
    expect(first.transcript.map((i) => i.kind)).toEqual(['turn-end'])
    expect(loaded(h, sessionId)).toBe(false)
    await h.client.call('session.send', { sessionId, text: 'and now?' })
    await h.core.sessions.idle(sessionId)
    const sent = h.fake
      .chatRequests()
      .at(-1)
      ?.messages.filter((m) => m.role !== 'system')
    expect(sent?.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'user'
    ])
  })

  it('still says a log is damaged: the first screen when it shows the damage, else the whole read', async () => {
    const h = await startCoreHarness({ name: 'session-peek-damaged' })
    const sessionId = record(h, 'chosen', branchyLog(true))
    // Damaged from outside (another process, a hand edit): the outline kept is read again.
    const other = new Database(h.core.store.database.db.name)
    onTestFinished(() => {
      other.close()
    })
    const damage = (key: string): void => {
      other
        .prepare('UPDATE session_events SET payload = ? WHERE session_id = ? AND key = ?')
        .run('{"item": {"kind": "tool", "tur', sessionId, key)
      h.core.sessions.drop(sessionId)
    }
    // An old call's row, far from the first screen: that screen shows, the rest says what broke.
    damage('tool:c1')
    const first = await h.client.call('session.get', { sessionId, tail: 2 })
    expect(first.transcript.map((i) => i.kind)).toEqual(['tool', 'turn-end'])
    await expect(h.client.call('session.get', { sessionId })).rejects.toThrow(/JSON/)
    expect(loaded(h, sessionId)).toBe(false)
    // A row the outline reads (a message places the branch): the first read fails already.
    damage('user:u1')
    await expect(h.client.call('session.get', { sessionId, tail: 2 })).rejects.toThrow(/JSON/)
    // And one on the first screen.
    damage('tool:c4')
    await expect(h.client.call('session.get', { sessionId, tail: 2 })).rejects.toThrow(/JSON/)
  })

  it('gives the meters of a session not loaded without loading it, as the loaded one does', async () => {
    const h = await startCoreHarness({ name: 'session-peek-meters' })
    const sessionId = record(h, 'chosen', branchyLog(true))
    const peeked = await h.client.call('session.meters', { sessionId })
    expect(loaded(h, sessionId)).toBe(false)
    h.core.sessions.get(sessionId)
    const whole = await h.client.call('session.meters', { sessionId })
    expect(peeked).toEqual(whole)
    expect(peeked.totals).toMatchObject({ inputTokens: 600, pricedTurns: 2, unpricedTurns: 1 })
  })
})
