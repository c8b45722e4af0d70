import path from 'node:path'
import type { EventFrame } from '../src/shared/contract/bridge'
import type { SessionSummary, TranscriptItem } from '../src/shared/domain'
import { SessionRecorder } from '../src/main/agent/session-recorder'
import { rehydrate } from '../src/main/agent/session-rehydrate'
import { EventHub } from '../src/main/events/event-hub'
import { openStore } from '../src/main/store/store'
import { median, report } from './measure'
import { benchSessionWindow } from './session-window.bench'

/** Events per timed batch of the writer benchmark. */
const WRITES = 2_000
/** The session the window opens in the load benchmark. */
const LOADED_EVENTS = 10_000

function summary(id: string, workspace: string): SessionSummary {
  return {
    id,
    workspace,
    title: 'Benchmark session',
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    model: { providerId: 'fake', model: 'fake-model' },
    running: false
  }
}

/** A realistic event: a finished Read call with about 1 KB of output. */
function toolItem(n: number): TranscriptItem {
  return {
    kind: 'tool',
    turnId: `turn-${Math.floor(n / 10)}`,
    call: {
      id: `call-${n}`,
      name: 'Read',
      input: { path: `src/file-${n}.ts` },
      state: 'done',
      readOnly: true,
      capabilities: {
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      },
      startedAt: n,
      endedAt: n + 1,
      output: {
        content: [{ type: 'text', text: `${n}\tconst value = ${n}\n`.repeat(40) }],
        isError: false,
        external: false
      },
      refusedBy: null
    }
  }
}

/**
 * The transcript writer's cost per event (the recorder on the hub, one transaction each) against
 * a bare autocommit INSERT of the same JSON into a plain table, on the same database file; then
 * reading a 10,000-event session back (rehydrate) against selecting and parsing its rows.
 */
export async function benchSessions(dir: string, workspace: string): Promise<void> {
  const store = openStore(path.join(dir, 'sessions-bench'))
  try {
    const hub = new EventHub()
    const recorder = new SessionRecorder(store.sessions, hub)
    store.sessions.saveSummary(summary('writer', workspace))
    store.database.db.exec('CREATE TABLE bare_events (id INTEGER PRIMARY KEY, payload TEXT)')
    const bare = store.database.db.prepare('INSERT INTO bare_events (payload) VALUES (?)')
    let n = 0
    const recorded = await median(async () => {
      for (let i = 0; i < WRITES; i++) {
        const frame: EventFrame = {
          event: 'transcript.item',
          payload: { sessionId: 'writer', item: toolItem(n++) }
        }
        recorder.record(frame)
      }
    }, 5)
    const inserted = await median(async () => {
      for (let i = 0; i < WRITES; i++) {
        bare.run(JSON.stringify({ sessionId: 'writer', item: toolItem(n++) }))
      }
    }, 5)
    recorder.close()
    report(
      'session writer, per event',
      recorded / WRITES,
      'bare INSERT, per event',
      inserted / WRITES
    )

    store.sessions.saveSummary(summary('big', workspace))
    store.database.write(() => {
      for (let i = 0; i < LOADED_EVENTS; i++) {
        const item = toolItem(i)
        store.sessions.append('big', {
          kind: 'transcript.item',
          key: `tool:${i}`,
          payload: { item }
        })
      }
    })
    const select = store.database.db.prepare(
      'SELECT payload FROM session_events WHERE session_id = ? ORDER BY seq'
    )
    const loaded = await median(async () => rehydrate(store.sessions.events('big')).transcript)
    const parsed = await median(async () =>
      (select.all('big') as { payload: string }[]).map((row) => JSON.parse(row.payload) as unknown)
    )
    report('load 10,000-event session (rehydrate)', loaded, 'SELECT + JSON.parse rows', parsed)
  } finally {
    store.close()
  }
  await benchSessionWindow(dir, workspace)
}
