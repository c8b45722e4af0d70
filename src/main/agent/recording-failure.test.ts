// Nothing happens that is not recorded: once the store cannot write a session's events, the turn
// stops before its next tool call or model request and says why. The failures are SQLite's own,
// on the real database file: `max_page_count` makes every write that needs a page fail with
// SQLITE_FULL exactly as a full disk does, and `query_only` refuses writes with SQLITE_READONLY.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Step } from '../../../testing/fake-model-server'
import type { EventFrame } from '../../shared/contract/bridge'
import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

/** Larger than any free room left in the database's pages, so recording it needs new ones. */
const LONG_REPLY = `${'A reply too long to fit in the pages already there. '.repeat(6000)}\n`

const writeAfterLongReply: Step[] = [
  {
    text: LONG_REPLY,
    toolCalls: [{ name: 'Write', input: { path: 'written.txt', content: 'must not exist\n' } }]
  },
  { text: 'Wrote it.' }
]

function failures(events: readonly EventFrame[]): string[] {
  return events.flatMap((e) =>
    e.event === 'turn.failed' ? [(e.payload as { error: string }).error] : []
  )
}

function toolCalls(events: readonly EventFrame[]): ToolCallView[] {
  const latest = new Map<string, ToolCallView>()
  for (const e of events) {
    const item = (e.payload as { item?: TranscriptItem }).item
    if (e.event === 'transcript.item' && item?.kind === 'tool') latest.set(item.call.id, item.call)
  }
  return [...latest.values()]
}

async function send(h: CoreHarness, sessionId: string, text: string): Promise<void> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
}

/** Lets the database grow no more than it has: the next write needing a page is SQLITE_FULL. */
function fillDisk(h: CoreHarness): () => void {
  const db = h.core.store.database.db
  const pages = db.pragma('page_count', { simple: true }) as number
  const before = db.pragma('max_page_count', { simple: true }) as number
  db.pragma(`max_page_count = ${pages}`)
  return () => void db.pragma(`max_page_count = ${before}`)
}

describe('a session whose events cannot be recorded', () => {
  it('stops before the Write when the disk is full, says why, and records again once it has room', async () => {
    const h = await startCoreHarness({ name: 'rec-full', script: writeAfterLongReply })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    const free = fillDisk(h)
    await send(h, session.id, 'write the file')

    const [error] = failures(h.events)
    expect(error).toBe(
      `cannot record this session: the disk holding ${h.home} is full. Free some space there, then send your message again.`
    )
    expect(existsSync(path.join(h.workspace, 'written.txt'))).toBe(false)
    // The Write was never run: its card says the turn stopped and why, and no further request
    // went to the model.
    const [write] = toolCalls(h.events)
    expect(write).toMatchObject({ name: 'Write', state: 'denied', startedAt: null })
    expect(JSON.stringify(write?.output?.content)).toContain('cannot record this session')
    expect(h.fake.chatRequests()).toHaveLength(1)
    // The window still heard how the turn ended, though the store could not keep it.
    const end = h.events.findLast(
      (e) =>
        e.event === 'transcript.item' &&
        (e.payload as { item: TranscriptItem }).item.kind === 'turn-end'
    )
    expect((end?.payload as { item: { error: string } }).item.error).toBe(error)

    free()
    h.fake.setScript([{ text: 'Recorded again.' }])
    await send(h, session.id, 'and now?')
    expect(failures(h.events)).toHaveLength(1)
    await h.restart()
    const stored = (await h.client.call('session.get', { sessionId: session.id })).transcript
    expect(stored.findLast((i) => i.kind === 'assistant')).toMatchObject({
      text: 'Recorded again.'
    })
  })

  it('stops before asking the model when the database refuses writes (read-only)', async () => {
    const h = await startCoreHarness({ name: 'rec-ro', script: writeAfterLongReply })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    h.core.store.database.db.pragma('query_only = ON')
    await send(h, session.id, 'write the file')

    const [error] = failures(h.events)
    expect(error).toMatch(
      /^cannot record this session: .*mecatl\.db cannot be written \(SQLITE_READONLY\)\. Make .* writable/
    )
    expect(h.fake.chatRequests()).toHaveLength(0)
    expect(existsSync(path.join(h.workspace, 'written.txt'))).toBe(false)
    expect(toolCalls(h.events)).toEqual([])
  })

  it('stops a call waiting in a batch once an earlier record fails mid-turn', async () => {
    // Reads first (their records fit), then the long reply fills the disk before the Write.
    const h = await startCoreHarness({
      name: 'rec-mid',
      files: { 'a.txt': 'alpha\n' },
      script: [{ toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] }, ...writeAfterLongReply]
    })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    h.client.subscribe((frame) => {
      const item = (frame.payload as { item?: TranscriptItem }).item
      if (item?.kind === 'tool' && item.call.name === 'Read' && item.call.state === 'done') {
        fillDisk(h)
      }
    })
    await send(h, session.id, 'read, then write')
    expect(failures(h.events)[0]).toMatch(
      /^cannot record this session: the disk holding .* is full/
    )
    expect(toolCalls(h.events).map((c) => [c.name, c.state])).toEqual([
      ['Read', 'done'],
      ['Write', 'denied']
    ])
    expect(existsSync(path.join(h.workspace, 'written.txt'))).toBe(false)
    expect(h.fake.chatRequests()).toHaveLength(2)
  })

  it('says why on the end the window shows when the end itself cannot be recorded', async () => {
    const h = await startCoreHarness({ name: 'rec-end', script: [{ text: 'All done.' }] })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    // The reply is recorded; the database refuses writes from the moment it is complete.
    h.client.subscribe((frame) => {
      const item = (frame.payload as { item?: TranscriptItem }).item
      if (item?.kind === 'assistant' && !item.streaming) {
        h.core.store.database.db.pragma('query_only = ON')
      }
    })
    await send(h, session.id, 'finish')
    const [error] = failures(h.events)
    expect(error).toMatch(/^cannot record this session: .*SQLITE_READONLY/)
    const ends = h.events.flatMap((e) => {
      const item = (e.payload as { item?: TranscriptItem }).item
      return e.event === 'transcript.item' && item?.kind === 'turn-end' ? [item] : []
    })
    // The last word on the turn's end, the one the window keeps, is the failure.
    expect(ends.at(-1)?.error).toBe(error)
  })
})
