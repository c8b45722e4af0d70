import { describe, expect, it } from 'vitest'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import type { NewEvent } from '../store/session-store'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { transcriptKey } from './session'

/** A small seeded generator, so a failing log can be made again from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const item = (i: TranscriptItem): NewEvent => ({
  kind: 'transcript.item',
  key: transcriptKey(i),
  payload: { item: i },
  text: i.kind === 'user' || i.kind === 'assistant' ? i.text : null,
  at: (i as { at?: number }).at ?? 0
})
const event = (kind: string, payload: Record<string, unknown>, at: number, key?: string) => ({
  kind,
  payload,
  at,
  ...(key ? { key } : {})
})
const call = (id: string, turnId: string, at: number, done: boolean): TranscriptItem => ({
  kind: 'tool',
  turnId,
  call: {
    id,
    name: 'Read',
    input: { path: `${id}.txt` },
    state: done ? 'done' : 'running',
    readOnly: true,
    capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false },
    startedAt: at,
    endedAt: done ? at + 1 : null,
    output: done
      ? { content: [{ type: 'text', text: `${id}\n` }], isError: false, external: false }
      : null,
    refusedBy: null
  }
})

type Ending = 'ended' | 'cut-mid-reply' | 'message-only'

/**
 * A conversation with no branches, as the recorder writes it: each turn's start, its message
 * (following the one before), replies, calls (their two states fold into one row), a plan, a
 * profile, a restore between turns, a compaction; `endings` says how each turn stopped. Times
 * are not in order everywhere, as clocks are not.
 */
function linearLog(seed: number, endings: Ending[], options: { parents?: boolean } = {}) {
  const next = random(seed)
  const events: NewEvent[] = []
  let previous: string | null = null
  endings.forEach((ending, n) => {
    const turnId = `t${n}`
    const at = 100 + n * 10 + Math.floor(next() * 30)
    const started = next() < 0.8
    if (started) events.push(event('turn.started', { turnId }, at))
    const parent = options.parents === false ? {} : { parent: previous }
    const user: TranscriptItem = { kind: 'user', id: `u${n}`, text: `question ${n}`, at, ...parent }
    events.push(item(user))
    previous = transcriptKey(user)
    if (ending === 'message-only') return
    const streaming = ending === 'cut-mid-reply'
    events.push(
      item({ kind: 'assistant', id: `a${n}`, turnId, text: `answer ${n}`, at, streaming })
    )
    if (streaming) {
      events.push(event('message.delta', { delta: ' and more' }, at + 1, `assistant:a${n}`))
      return
    }
    const calls = Math.floor(next() * 4)
    for (let c = 0; c < calls; c++) {
      events.push(item(call(`c${n}-${c}`, turnId, at, false)))
      events.push(item(call(`c${n}-${c}`, turnId, at, next() < 0.9)))
    }
    if (next() < 0.2) {
      events.push(event('todo.updated', { items: [{ text: `step ${n}`, status: 'pending' }] }, at))
    }
    if (next() < 0.1) {
      events.push(event('session.updated', { profile: 'no-fs', folderTrust: 'untrusted' }, at))
    }
    if (next() < 0.1) {
      events.push(
        item({
          kind: 'compaction',
          id: `k${n}`,
          turnId,
          summary: 'so far',
          carried: '',
          summarised: 4,
          at
        })
      )
    }
    events.push(
      item({ kind: 'assistant', id: `b${n}`, turnId, text: `so ${n}`, at, streaming: false })
    )
    if (ending === 'ended') {
      const usage = { inputTokens: 100 + n, outputTokens: 7, cachedTokens: 3 }
      events.push(
        item({ kind: 'turn-end', turnId, usage, stopReason: 'end_turn', error: null, at: at + 2 })
      )
    }
    if (next() < 0.1) {
      events.push(
        item({
          kind: 'restore',
          id: `r${n}`,
          to: 'x',
          undo: 'y',
          label: 'put back',
          changes: [],
          at
        })
      )
    }
  })
  return events
}

function record(h: CoreHarness, id: string, events: NewEvent[]): string {
  const summary: SessionSummary = {
    id,
    workspace: h.workspace,
    title: id,
    createdAt: 1,
    updatedAt: 30,
    messageCount: 0,
    model: null,
    running: false
  }
  h.core.store.sessions.insert(summary, null, events)
  return id
}

const TAILS = [1, 2, 3, 5, 8, 13, 30, 80, 1000]

/** The first screen read without loading the session, and the same asked of it loaded. */
async function bothWays(h: CoreHarness, sessionId: string, tail: number) {
  h.core.sessions.drop(sessionId)
  const peeked = await h.client.call('session.get', { sessionId, tail })
  h.core.sessions.get(sessionId)
  const whole = await h.client.call('session.get', { sessionId, tail })
  return { peeked, whole }
}

// The first screen of a session with no branches is read from its newest turns only, the rest
// counted in the database: it must be the screen the whole session gives, whatever the log.
describe('the first screen of a session with no branches, read from its tail', () => {
  it('is the screen the loaded session shows, for every tail and every kind of log', async () => {
    const h = await startCoreHarness({ name: 'session-peek-linear' })
    const ended = (n: number): Ending[] => Array.from({ length: n }, () => 'ended' as const)
    const logs: [string, NewEvent[]][] = [
      ['clean', linearLog(1, ended(40))],
      ['no-parents', linearLog(2, ended(40), { parents: false })],
      ['last-cut', linearLog(3, [...ended(30), 'cut-mid-reply'])],
      ['last-message-only', linearLog(4, [...ended(30), 'message-only'])],
      ['crash-in-middle', linearLog(5, [...ended(15), 'cut-mid-reply', ...ended(15)])],
      ['unanswered-in-middle', linearLog(6, [...ended(15), 'message-only', ...ended(15)])],
      ['unended-in-middle', linearLog(7, [...ended(10), 'cut-mid-reply', ...ended(25)])]
    ]
    for (let seed = 10; seed < 16; seed++) {
      const next = random(seed)
      const endings = Array.from({ length: 30 }, (): Ending => {
        const roll = next()
        return roll < 0.9 ? 'ended' : roll < 0.95 ? 'cut-mid-reply' : 'message-only'
      })
      logs.push([`random-${seed}`, linearLog(seed, endings)])
    }
    for (const [name, events] of logs) {
      const sessionId = record(h, name, events)
      for (const tail of TAILS) {
        const { peeked, whole } = await bothWays(h, sessionId, tail)
        expect({ name, tail, ...peeked }).toEqual({ name, tail, ...whole })
      }
    }
  })

  it('takes the short way on a session with no branches, and the whole way on one with them', async () => {
    const h = await startCoreHarness({ name: 'session-peek-linear-ways' })
    const ended = Array.from({ length: 40 }, (): Ending => 'ended')
    record(h, 'linear', linearLog(21, ended))
    const store = h.core.store.sessions
    const cut = store.tailOutline('linear', 8)
    // The tail holds the screen and no more than the turns it takes; the rest is counted.
    expect(cut?.rows.length).toBeGreaterThan(8)
    expect(cut?.rows.length).toBeLessThan(40)
    expect(cut?.before.items).toBeGreaterThan(200)
    // A message that follows an earlier one than the last (an edit, a rewind) is a branch.
    const edited = linearLog(22, ended)
    const last = edited.findLastIndex((e) => e.key?.startsWith('user:'))
    const message = edited[last]?.payload.item as Extract<TranscriptItem, { kind: 'user' }>
    edited[last] = item({ ...message, parent: 'user:u10' })
    record(h, 'edited', edited)
    expect(store.tailOutline('edited', 8)).toBeNull()
    const { peeked, whole } = await bothWays(h, 'edited', 8)
    expect(peeked).toEqual(whole)
    // A first message later than the first (a rewind to the start) is one too.
    const restarted = linearLog(23, ended)
    const third = restarted.findIndex((e) => e.key === 'user:u3')
    restarted[third] = item({
      ...(restarted[third]?.payload.item as TranscriptItem),
      parent: null
    } as TranscriptItem)
    record(h, 'restarted', restarted)
    expect(store.tailOutline('restarted', 8)).toBeNull()
    // So is a choice of branch, even of the branch shown.
    record(h, 'chosen', [
      ...linearLog(24, ended),
      event('branch.selected', { parent: 'user:u38', child: 'user:u39' }, 900)
    ])
    expect(store.tailOutline('chosen', 8)).toBeNull()
    // A turn left unended before the cut is closed by a replay of the whole log.
    record(
      h,
      'crashed',
      linearLog(25, [...ended.slice(0, 10), 'cut-mid-reply', ...ended.slice(10)])
    )
    expect(store.tailOutline('crashed', 8)).toBeNull()
    // A session shorter than the screen has nothing to cut.
    record(h, 'short', linearLog(26, ended.slice(0, 1)))
    expect(store.tailOutline('short', 80)).toBeNull()
  })
})
