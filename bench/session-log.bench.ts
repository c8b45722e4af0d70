import { statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { EventFrame } from '../src/shared/contract/bridge'
import type { ChildStep, SessionSummary, ToolCallView, TranscriptItem } from '../src/shared/domain'
import { transcriptKey } from '../src/main/agent/session'
import { SessionRecorder } from '../src/main/agent/session-recorder'
import { rehydrate } from '../src/main/agent/session-rehydrate'
import { EventHub } from '../src/main/events/event-hub'
import { openDatabase, type StoreDatabase } from '../src/main/store/database'
import { migrations } from '../src/main/store/migrations'
import type { StoredEvent } from '../src/main/store/session-store'
import { openStore, storePath } from '../src/main/store/store'
import { report, reportAmount } from './measure'
import { V2SessionWriter } from './session-log-v2'

const EVENTS = 10_000
const TURNS = 23
const CARDS = 200
/** Every this many cards is a sub-agent's, whose card grows step by step while it runs. */
const AGENT_EVERY = 8
const REPLY_BYTES = 20_000
const PIECE_BYTES = 50
/** Milliseconds between two streamed pieces: a fast model (2 KB/s) and a typical one. */
const PACES = [25, 100]
const SESSION = 'log-bench'

/** One event as the hub emits it, and how far the clock moves before it arrives. */
interface Timed {
  frame: EventFrame
  afterMs: number
}

const words = 'the model reads files runs tests and explains what it found in plain words'.split(
  ' '
)

/** Deterministic prose of exactly `bytes` ASCII bytes. */
function prose(bytes: number, seed: number): string {
  let text = ''
  for (let n = seed; text.length < bytes; n = (n * 31 + 7) % 1009)
    text += `${words[n % words.length]} `
  return text.slice(0, bytes)
}

function summary(updatedAt: number, running: boolean): SessionSummary {
  return {
    id: SESSION,
    workspace: '/bench/project',
    title: 'A long session',
    createdAt: 1,
    updatedAt,
    messageCount: 2,
    model: { providerId: 'fake', model: 'fake-model' },
    running,
    taint: { privateData: true, untrustedInput: false },
    planning: false
  }
}

function readCall(n: number, done: boolean): ToolCallView {
  return {
    id: `call-${n}`,
    name: 'Read',
    input: { path: `src/file-${n}.ts` },
    state: done ? 'done' : 'running',
    readOnly: true,
    capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false },
    startedAt: n,
    endedAt: done ? n + 1 : null,
    output: done
      ? {
          content: [{ type: 'text', text: `${n}\tconst value = ${n}\n`.repeat(40) }],
          isError: false,
          external: false
        }
      : null,
    refusedBy: null
  }
}

function agentCall(n: number, steps: number, done: boolean): ToolCallView {
  const shown: ChildStep[] = Array.from({ length: steps }, (_, s) => ({
    kind: 'text',
    id: `step-${n}-${s}`,
    text: prose(400, n * 13 + s)
  }))
  return {
    ...readCall(n, done),
    name: 'Subagent',
    input: { task: `look at part ${n}` },
    output: {
      content: done ? [{ type: 'text', text: prose(300, n) }] : [],
      isError: false,
      external: false,
      display: {
        kind: 'subagent',
        agent: 'helper',
        task: `look at part ${n}`,
        status: done ? 'done' : 'running',
        steps: shown,
        note: null
      }
    }
  }
}

/**
 * The benchmark's session, exactly EVENTS events: its creation, then TURNS turns, each a message,
 * one reply of REPLY_BYTES streamed in PIECE_BYTES pieces, then its share of the CARDS tool cards
 * (each running, then done; the sub-agents' cards also grow by a step per progress report, as
 * many as make up the count), then the turn's end.
 */
function session(pace: number): Timed[] {
  const perTurn = 6 + 2 + REPLY_BYTES / PIECE_BYTES
  const agents = Math.ceil(CARDS / AGENT_EVERY)
  const progress = EVENTS - 1 - TURNS * perTurn - 2 * CARDS
  const timed: Timed[] = []
  const emit = (event: string, payload: unknown, afterMs = 50): void => {
    timed.push({ frame: { event, payload }, afterMs })
  }
  const item = (value: TranscriptItem): void =>
    emit('transcript.item', { sessionId: SESSION, key: transcriptKey(value), item: value })
  // Created: the session's row, which every later event is recorded against.
  emit('session.updated', summary(0, false))
  let card = 0
  for (let turn = 0; turn < TURNS; turn++) {
    const turnId = `turn-${turn}`
    emit('turn.started', { sessionId: SESSION, turnId })
    item({
      kind: 'user',
      id: `user-${turn}`,
      text: `Question ${turn}: ${prose(200, turn)}`,
      at: turn
    })
    emit('session.updated', summary(turn, true))
    const reply = { kind: 'assistant' as const, id: `reply-${turn}`, turnId, at: turn }
    const text = prose(REPLY_BYTES, turn + 1)
    item({ ...reply, text: '', streaming: true })
    for (let at = 0; at < text.length; at += PIECE_BYTES) {
      const delta = text.slice(at, at + PIECE_BYTES)
      const key = `assistant:${reply.id}`
      emit('message.delta', { sessionId: SESSION, turnId, messageId: reply.id, key, delta }, pace)
    }
    item({ ...reply, text, streaming: false })
    const cards = Math.floor(CARDS / TURNS) + (turn < CARDS % TURNS ? 1 : 0)
    for (let c = 0; c < cards; c++, card++) {
      const agent = card % AGENT_EVERY === 0
      const index = card / AGENT_EVERY
      const steps = agent ? Math.floor(progress / agents) + (index < progress % agents ? 1 : 0) : 0
      for (let s = 0; s <= steps; s++) {
        item({
          kind: 'tool',
          turnId,
          call: agent ? agentCall(card, s, false) : readCall(card, false)
        })
      }
      item({
        kind: 'tool',
        turnId,
        call: agent ? agentCall(card, steps, true) : readCall(card, true)
      })
    }
    const usage = { inputTokens: 1000, outputTokens: 5000, cachedTokens: 900 }
    item({ kind: 'turn-end', turnId, usage, stopReason: 'end_turn', error: null, at: turn })
    emit('turn.completed', { sessionId: SESSION, turnId, usage, stopReason: 'end_turn' })
    emit('session.updated', summary(turn, false))
  }
  if (timed.length !== EVENTS)
    throw new Error(`the session has ${timed.length} events, not ${EVENTS}`)
  return timed
}

/** The database file's bytes once its write-ahead log is folded in. */
function fileBytes(database: StoreDatabase): number {
  database.db.pragma('wal_checkpoint(TRUNCATE)')
  return statSync(database.db.name).size
}

interface Measured {
  /** Bytes the session added to the database file. */
  stored: number
  transcript: TranscriptItem[]
  ms: number
}

/** Replays the session through `write`, with the clock moving as the events say. */
function replay(
  events: Timed[],
  clock: { now: number },
  write: (frame: EventFrame) => void
): number {
  const start = process.hrtime.bigint()
  for (const { frame, afterMs } of events) {
    clock.now += afterMs
    write(frame)
  }
  return Number(process.hrtime.bigint() - start) / 1e6
}

function measureNew(dir: string, events: Timed[]): Measured {
  const store = openStore(dir)
  try {
    const empty = fileBytes(store.database)
    const clock = { now: 0 }
    const recorder = new SessionRecorder(store.sessions, new EventHub(), { now: () => clock.now })
    const ms = replay(events, clock, (frame) => recorder.record(frame))
    recorder.close()
    const { transcript } = rehydrate(store.sessions.events(SESSION))
    return { stored: fileBytes(store.database) - empty, transcript, ms }
  } finally {
    store.close()
  }
}

function measureOld(dir: string, events: Timed[]): Measured {
  const database = openDatabase(
    storePath(dir),
    migrations.filter((m) => m.version <= 2)
  )
  try {
    const empty = fileBytes(database)
    const clock = { now: 0 }
    const writer = new V2SessionWriter(database, () => clock.now)
    const ms = replay(events, clock, (frame) => writer.record(frame))
    writer.close()
    const rows = database.db
      .prepare(
        'SELECT seq, at, kind, key, payload FROM session_events WHERE session_id = ? ORDER BY seq'
      )
      .all(SESSION) as (Omit<StoredEvent, 'payload'> & { payload: string })[]
    const stored = rows.map((row) => ({
      ...row,
      payload: JSON.parse(row.payload) as Record<string, unknown>
    }))
    return { stored: fileBytes(database) - empty, transcript: rehydrate(stored).transcript, ms }
  } finally {
    database.close()
  }
}

/**
 * Bytes the session log adds to the real database file per byte of the final transcript (its
 * items as JSON), for a 10,000-event session, against the version 2 writer replaying the same
 * events at the same pace in the same run; then the time each took to write it.
 */
export async function benchSessionLog(dir: string): Promise<void> {
  const replies = `${TURNS} replies of ${REPLY_BYTES / 1000} KB in ${PIECE_BYTES}-byte pieces`
  const shape = `${EVENTS.toLocaleString('en')} events: ${replies}, ${CARDS} tool cards`
  console.log(`session log, bytes stored per byte of transcript (${shape})`)
  let times: [number, number] = [0, 0]
  for (const pace of PACES) {
    const events = session(pace)
    const fresh = path.join(dir, `session-log-${pace}`)
    const legacy = path.join(dir, `session-log-v2-${pace}`)
    await mkdir(fresh)
    await mkdir(legacy)
    const now = measureNew(fresh, events)
    const old = measureOld(legacy, events)
    if (!isDeepStrictEqual(now.transcript, old.transcript)) {
      throw new Error('the linear log reads back a different transcript than version 2')
    }
    const bytes = Buffer.byteLength(JSON.stringify(now.transcript))
    reportAmount(
      `  a piece every ${pace} ms`,
      now.stored / bytes,
      'x',
      'version 2 writer',
      old.stored / bytes
    )
    times = [now.ms, old.ms]
  }
  report(
    `session log, write it (a piece every ${PACES.at(-1)} ms)`,
    times[0],
    'version 2 writer',
    times[1]
  )
}
