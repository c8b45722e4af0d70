import { describe, expect, it } from 'vitest'
import { startCoreHarness, type CoreHarness } from '../../../testing/core-harness'
import { KEPT_IDLE_SESSIONS } from './session-service'

/** A session with one finished turn in it; returns its id. */
async function sessionWithTurn(h: CoreHarness, n: number): Promise<string> {
  const { id } = await h.client.call('session.create', { workspace: h.workspace })
  h.fake.setScript([{ text: `answer ${n}` }])
  await h.client.call('session.send', { sessionId: id, text: `question ${n}` })
  await h.core.sessions.idle(id)
  return id
}

async function manySessions(h: CoreHarness, count: number): Promise<string[]> {
  const ids: string[] = []
  for (let n = 0; n < count; n++) ids.push(await sessionWithTurn(h, n))
  return ids
}

// Over a long day the core held every session it had touched, each with its whole transcript and
// history, until it stopped: the soak bench saw its heap grow by about 10 KB a turn, for good.
describe('the sessions a core holds', () => {
  it('are the latest used: an idle one used longest ago is let go, and read back whole', async () => {
    const h = await startCoreHarness({ name: 'session-release' })
    const ids = await manySessions(h, KEPT_IDLE_SESSIONS + 2)
    const [first, second, ...rest] = ids as [string, string, ...string[]]
    expect(h.core.sessions.isHeld(first)).toBe(false)
    expect(h.core.sessions.isHeld(second)).toBe(false)
    for (const id of rest) expect(h.core.sessions.isHeld(id)).toBe(true)

    // Read back from the store, it is what it was, and it goes on.
    const { transcript } = await h.client.call('session.get', { sessionId: first })
    expect(transcript.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []))).toEqual([
      'answer 0'
    ])
    h.fake.setScript([{ text: 'answer again' }])
    await h.client.call('session.send', { sessionId: first, text: 'and now?' })
    await h.core.sessions.idle(first)
    const again = await h.client.call('session.get', { sessionId: first })
    expect(again.transcript.filter((i) => i.kind === 'user')).toHaveLength(2)
    expect(h.core.sessions.isHeld(first)).toBe(true)
    // The one used longest ago made room for it.
    expect(h.core.sessions.isHeld(rest[0] as string)).toBe(false)
  })

  it('keep a session that holds what its record cannot give back', async () => {
    const h = await startCoreHarness({ name: 'session-keep' })
    const first = await sessionWithTurn(h, 0)
    // A held-back tool the model found: it is sent to the model from then on, and not stored.
    h.core.sessions.get(first).disclosed.add('WebFetch')
    await manySessions(h, KEPT_IDLE_SESSIONS + 1)
    expect(h.core.sessions.isHeld(first)).toBe(true)
    expect(h.core.sessions.get(first).disclosed.has('WebFetch')).toBe(true)
  })

  it('keep the session just used, even when every older one must stay', async () => {
    const h = await startCoreHarness({ name: 'session-keep-latest' })
    const pinned = await manySessions(h, KEPT_IDLE_SESSIONS)
    for (const id of pinned) h.core.sessions.get(id).disclosed.add('WebFetch')
    const latest = await sessionWithTurn(h, KEPT_IDLE_SESSIONS)
    expect(h.core.sessions.isHeld(latest)).toBe(true)
    // Read back, it is held again, and it is the next one that is let go of instead.
    const next = await sessionWithTurn(h, KEPT_IDLE_SESSIONS + 1)
    expect(h.core.sessions.isHeld(latest)).toBe(false)
    expect(h.core.sessions.isHeld(next)).toBe(true)
    await h.client.call('session.get', { sessionId: latest })
    expect(h.core.sessions.isHeld(latest)).toBe(true)
    for (const id of pinned) expect(h.core.sessions.isHeld(id)).toBe(true)
  })

  it('give back a session let go of as untrusted when its folder was distrusted meanwhile', async () => {
    const h = await startCoreHarness({ name: 'session-release-trust' })
    const first = await sessionWithTurn(h, 0)
    await manySessions(h, KEPT_IDLE_SESSIONS + 1)
    expect(h.core.sessions.isHeld(first)).toBe(false)

    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'untrusted' })
    const { session } = await h.client.call('session.get', { sessionId: first })
    expect(session.folderTrust).toBe('untrusted')
    expect(h.core.sessions.get(first).folderTrusted).toBe(false)
    // Trusting the folder applies from the next session, never to one made before.
    await h.client.call('workspace.setTrust', { path: h.workspace, trust: 'trusted' })
    const next = await h.client.call('session.create', { workspace: h.workspace })
    expect(next.folderTrust).toBeUndefined()
  })
})
