import { describe, expect, it } from 'vitest'
import type { EventPayload } from '../../shared/contract'
import { startCoreHarness } from '../../../testing/core-harness'

// The window folds the transcript by the keys the core gives it and never works one out itself:
// the live events, the snapshot and a snapshot read back after a restart must all agree.
describe('transcript keys come from the core', () => {
  it('names every item, every streamed piece and every snapshot entry by one key', async () => {
    const h = await startCoreHarness({
      name: 'keys',
      files: { 'a.txt': 'alpha\n' },
      script: [
        { text: 'Reading it now.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
        { text: 'It says alpha.' }
      ]
    })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'what is in a.txt?' })
    await h.core.sessions.idle(session.id)

    const items = h.events
      .filter((e) => e.event === 'transcript.item')
      .map((e) => e.payload as EventPayload<'transcript.item'>)
    const deltas = h.events
      .filter((e) => e.event === 'message.delta')
      .map((e) => e.payload as EventPayload<'message.delta'>)
    const liveKeys = [...new Set(items.map((p) => p.key))]
    expect(liveKeys.map((key) => key.split(':')[0])).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'turn-end'
    ])

    // A streamed piece names the item it extends, which the core announced before it.
    expect(deltas.length).toBeGreaterThan(0)
    for (const delta of deltas) {
      const announced = items.find(
        (p) => p.item.kind === 'assistant' && p.item.id === delta.messageId
      )
      expect(delta.key).toBe(announced?.key)
    }

    const snapshot = await h.client.call('session.get', { sessionId: session.id })
    expect(snapshot.keys).toEqual(liveKeys)
    expect(snapshot.keys).toHaveLength(snapshot.transcript.length)
    const last = items.at(-1)
    expect(snapshot.transcript.at(-1)).toEqual(last?.item)

    await h.restart()
    const reloaded = await h.client.call('session.get', { sessionId: session.id })
    expect(reloaded.keys).toEqual(liveKeys)
    expect(reloaded.transcript.map((item) => item.kind)).toEqual(
      snapshot.transcript.map((item) => item.kind)
    )
  })
})
