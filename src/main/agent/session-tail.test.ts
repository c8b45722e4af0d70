import { describe, expect, it } from 'vitest'
import { RpcError } from '../../shared/contract'
import { startCoreHarness } from '../../../testing/core-harness'

// A long session opens at its newest items: the window asks for the first screen, then the rest.
describe('session.get with a tail', () => {
  it('answers the newest items of the branch shown, their keys, and how many there are', async () => {
    const h = await startCoreHarness({
      name: 'session-tail',
      files: { 'a.txt': 'alpha\n' },
      script: [
        { text: 'Reading it.', toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }] },
        { text: 'It says alpha.' },
        { text: 'Second answer.' }
      ]
    })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'what is in a.txt?' })
    await h.core.sessions.idle(session.id)
    await h.client.call('session.send', { sessionId: session.id, text: 'and again?' })
    await h.core.sessions.idle(session.id)

    const full = await h.client.call('session.get', { sessionId: session.id })
    expect(full.total).toBe(full.transcript.length)
    const tail = await h.client.call('session.get', { sessionId: session.id, tail: 3 })
    expect(tail.transcript).toEqual(full.transcript.slice(-3))
    expect(tail.keys).toEqual(full.keys.slice(-3))
    expect(tail.total).toBe(full.transcript.length)
    expect(tail.transcript.at(-1)?.kind).toBe('turn-end')

    // A tail longer than the session is the whole of it.
    const all = await h.client.call('session.get', { sessionId: session.id, tail: 5000 })
    expect(all.transcript).toEqual(full.transcript)

    // Read back as after a restart, the tail is the same.
    h.core.sessions.drop(session.id)
    const reread = await h.client.call('session.get', { sessionId: session.id, tail: 3 })
    expect(reread.keys).toEqual(tail.keys)
  })

  it('refuses a tail that is not a positive whole number', async () => {
    const h = await startCoreHarness({ name: 'session-tail-bad' })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    for (const tail of [0, -1, 1.5, Number.NaN, '3']) {
      await expect(
        h.client.call('session.get', { sessionId: session.id, tail } as never)
      ).rejects.toBeInstanceOf(RpcError)
    }
    // The input stays strict: a misspelt option is an error, not a silent whole transcript.
    await expect(
      h.client.call('session.get', { sessionId: session.id, tial: 3 } as never)
    ).rejects.toBeInstanceOf(RpcError)
  })
})
