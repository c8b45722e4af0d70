import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ChildStep, SessionSummary, ToolCallView, TranscriptItem } from '../../shared/domain'
import { EventHub } from '../events/event-hub'
import { openStore, storePath, type Store } from '../store/store'
import { transcriptKey } from './session'
import { SessionRecorder } from './session-recorder'
import { INTERRUPTED, rehydrate } from './session-rehydrate'

let dir: string
let store: Store
let hub: EventHub
let recorder: SessionRecorder
/** The recorder's clock: each streamed piece arrives a tenth of a second after the last. */
let clock: number

const SESSION = 's1'
const TURN = 't1'

function summary(): SessionSummary {
  return {
    id: SESSION,
    workspace: '/work/project',
    title: 'Log',
    createdAt: 1,
    updatedAt: 1,
    messageCount: 1,
    model: { providerId: 'fake', model: 'fake-model' },
    running: true
  }
}

function item(value: TranscriptItem): void {
  hub.emit('transcript.item', { sessionId: SESSION, key: transcriptKey(value), item: value })
}

/** Streams `text` into reply `id` in pieces of `size` characters, the clock moving on each. */
function stream(id: string, text: string, size: number): void {
  for (let at = 0; at < text.length; at += size) {
    clock += 100
    hub.emit('message.delta', {
      sessionId: SESSION,
      turnId: TURN,
      messageId: id,
      key: `assistant:${id}`,
      delta: text.slice(at, at + size)
    })
  }
}

/** A sub-agent's card as it grows: one more step of ~400 bytes per update. */
function agentCall(steps: number, state: ToolCallView['state']): ToolCallView {
  const shown: ChildStep[] = Array.from({ length: steps }, (_, n) => ({
    kind: 'text',
    id: `step-${n}`,
    text: `Step ${n}: looked at src/file-${n}.ts and found nothing to change. `.repeat(6)
  }))
  return {
    id: 'call-agent',
    name: 'Subagent',
    input: { task: 'look around' },
    state,
    readOnly: true,
    capabilities: null,
    startedAt: 10,
    endedAt: state === 'running' ? null : 20,
    output: {
      content: state === 'running' ? [] : [{ type: 'text', text: 'Nothing to change.' }],
      isError: false,
      external: false,
      display: {
        kind: 'subagent',
        agent: 'helper',
        task: 'look around',
        status: state === 'running' ? 'running' : 'done',
        steps: shown,
        note: null
      }
    },
    refusedBy: null
  }
}

const reply = (text: string, streaming: boolean, id = 'a1'): TranscriptItem => ({
  kind: 'assistant',
  id,
  turnId: TURN,
  text,
  at: 2,
  streaming
})

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value))
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-recorder-'))
  store = openStore(dir)
  hub = new EventHub()
  clock = 1_000
  recorder = new SessionRecorder(store.sessions, hub, { now: () => clock })
  hub.emit('session.updated', summary())
  hub.emit('turn.started', { sessionId: SESSION, turnId: TURN })
  item({ kind: 'user', id: 'u1', text: 'Look around, then explain.', at: 1 })
})
afterEach(async () => {
  recorder.close()
  store.close()
  await rm(dir, { recursive: true, force: true })
})

describe('the session log', () => {
  it('holds a streamed reply and a growing tool card about once, not once per save', () => {
    const text = 'The reply, streamed in small pieces as a model sends it. '.repeat(180)
    item(reply('', true))
    stream('a1', text, 50)
    item(reply(text, false))
    for (let steps = 0; steps <= 30; steps++)
      item({ kind: 'tool', turnId: TURN, call: agentCall(steps, 'running') })
    const done: TranscriptItem = { kind: 'tool', turnId: TURN, call: agentCall(30, 'done') }
    item(done)
    const end: TranscriptItem = {
      kind: 'turn-end',
      turnId: TURN,
      usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0 },
      stopReason: 'end_turn',
      error: null,
      at: 30
    }
    item(end)
    recorder.close()

    const events = store.sessions.events(SESSION)
    const { transcript } = rehydrate(events)
    expect(transcript).toEqual([
      { kind: 'user', id: 'u1', text: 'Look around, then explain.', at: 1 },
      reply(text, false),
      done,
      end
    ])
    const stored = store.sessions.get(SESSION)?.sizeBytes ?? 0
    expect(stored / bytes(transcript)).toBeLessThan(1.2)
    // Each item is one row in its final state: what was saved while it changed is folded away.
    const items = events.filter((e) => e.kind === 'transcript.item').map((e) => e.key)
    expect(items).toEqual(transcript.map(transcriptKey))
    expect(events.map((e) => e.kind)).not.toContain('message.delta')
  })

  it('saves text that failed to save with the next piece, so no piece goes missing', () => {
    item(reply('', true))
    stream('a1', 'Before the disk filled. ', 50)
    const db = store.database.db
    const room = db.pragma('max_page_count', { simple: true }) as number
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`)
    // Longer than any free room left in the pages: saving it needs a page the disk has not got.
    const lost = 'Streamed while the disk was full. '.repeat(400)
    clock += 250
    stream('a1', lost, lost.length)
    expect(store.sessions.recordingFailure(SESSION)).toMatch(/disk .* is full/)
    db.pragma(`max_page_count = ${room}`)
    clock += 250
    stream('a1', 'After.', 50)

    const events = store.sessions.events(SESSION)
    expect(rehydrate(events).transcript[1]).toMatchObject({
      text: `Before the disk filled. ${lost}After.`
    })
  })

  it('keeps what streamed and the latest card when the app dies mid-reply', async () => {
    item(reply('', true))
    const first = 'Looking around first. '.repeat(40)
    stream('a1', first, 50)
    item(reply(first, false))
    item({ kind: 'tool', turnId: TURN, call: agentCall(0, 'running') })
    item({ kind: 'tool', turnId: TURN, call: agentCall(3, 'running') })
    const latest = agentCall(4, 'running')
    item({ kind: 'tool', turnId: TURN, call: latest })
    item(reply('', true, 'a2'))
    const partial = 'Half of an answer that was still streaming, with "quotes" and ünïcode 🚀. '
    stream('a2', partial.repeat(8), 7)
    // The tail waits for the flush timer; a crash before it loses at most that quarter second.
    clock += 250
    hub.emit('message.delta', {
      sessionId: SESSION,
      turnId: TURN,
      messageId: 'a2',
      key: 'assistant:a2',
      delta: '!'
    })

    // What a kill leaves on disk: the database and its write-ahead log, the recorder still open.
    const crashed = path.join(dir, 'crashed')
    await mkdir(crashed)
    for (const suffix of ['', '-wal']) {
      await copyFile(`${storePath(dir)}${suffix}`, `${storePath(crashed)}${suffix}`)
    }
    const reopened = openStore(crashed)
    try {
      const events = reopened.sessions.events(SESSION)
      const cards = events.filter((e) => e.key === 'tool:call-agent')
      expect(cards.map((e) => e.payload)).toEqual([
        { item: { kind: 'tool', turnId: TURN, call: latest } }
      ])
      const { transcript } = rehydrate(events)
      expect(transcript.map((i) => i.kind)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'turn-end'
      ])
      expect(transcript[1]).toMatchObject({ text: first, streaming: false })
      expect(transcript[2]).toMatchObject({
        call: { id: 'call-agent', state: 'failed', startedAt: 10, output: { isError: true } }
      })
      expect(transcript[3]).toMatchObject({
        id: 'a2',
        text: `${partial.repeat(8)}!`,
        streaming: false
      })
      expect(transcript[4]).toMatchObject({ turnId: TURN, stopReason: INTERRUPTED })
    } finally {
      reopened.close()
    }
  })
})
