import { describe, expect, it } from 'vitest'
import { startCoreHarness } from '../../testing/core-harness'

describe('RecallSession', () => {
  it("finds what was said earlier in the session's own history, and adds no taint", async () => {
    const { core, fake, workspace } = await startCoreHarness({
      name: 'recall',
      format: 'openai-compatible',
      permissions: 'ask'
    })
    fake.setScript([
      { text: 'Noted: the release is called Pelican.' },
      { toolCalls: [{ name: 'RecallSession', input: { query: 'PELICAN release' } }] },
      { text: 'done' }
    ])
    const session = await core.sessions.create(workspace)
    await core.sessions.send(session.id, 'Remember that the release is called Pelican')
    await core.sessions.idle(session.id)
    await core.sessions.send(session.id, 'What was the release called?')
    await core.sessions.idle(session.id)

    const [result] = fake.lastToolResults()
    expect(result?.content).toContain('#0 person')
    expect(result?.content).toContain('Remember that the release is called Pelican')
    expect(result?.content).toContain('Noted: the release is called Pelican.')
    expect(result?.content.indexOf('Noted')).toBeLessThan(result?.content.indexOf('#0') ?? 0)
    expect(core.sessions.get(session.id).taint).toEqual({
      privateData: false,
      untrustedInput: false
    })
  })
})
