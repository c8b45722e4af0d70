import { writeFile } from 'node:fs/promises'
import YAML from 'yaml'
import { describe, expect, it } from 'vitest'
import { fakeProvider, startCoreHarness } from '../../../testing/core-harness'

describe('session.meters', () => {
  it('gives the window, the threshold the next turn compacts at, the latest request and totals', async () => {
    const h = await startCoreHarness({
      name: 'meters',
      format: 'openai',
      settings: { default_model: { provider: 'fake', model: 'gpt-4o' } },
      script: [
        { text: 'One.', usage: { input: 1000, output: 100, cached: 0 } },
        { text: 'Two.', usage: { input: 3000, output: 50, cached: 2000 } }
      ]
    })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    const before = await h.client.call('session.meters', { sessionId: session.id })
    // gpt-4o: 128k tokens, compacted at three quarters; nothing asked yet.
    expect(before).toMatchObject({ contextWindow: 128_000, compactAt: 96_000, contextTokens: null })
    expect(before.totals).toMatchObject({ inputTokens: 0, pricedTurns: 0, unpricedTurns: 0 })

    for (const text of ['first', 'second']) {
      await h.client.call('session.send', { sessionId: session.id, text })
      await h.core.sessions.idle(session.id)
    }
    const after = await h.client.call('session.meters', { sessionId: session.id })
    // The context is the latest request's input, not the session's sum.
    expect(after.contextTokens).toBe(3000)
    expect(after.totals).toMatchObject({
      inputTokens: 4000,
      outputTokens: 150,
      cachedTokens: 2000,
      pricedTurns: 2,
      unpricedTurns: 0
    })
    // gpt-4o, $2.50 fresh, $1.25 cached, $10 out per million: 2,000 fresh, 2,000 cached and
    // 150 out are $0.005 + $0.0025 + $0.0015.
    expect(after.totals.usd).toBeCloseTo(0.009, 10)
    // The list and the live summary say the same.
    const listed = await h.client.call('session.list', { workspace: h.workspace })
    expect(listed.sessions.find((s) => s.id === session.id)?.totals).toEqual(after.totals)

    // The settings decide the window and the threshold, read afresh on every call.
    await writeFile(
      h.config,
      YAML.stringify({
        providers: [{ ...fakeProvider(h.fake, 'openai'), context_windows: { 'gpt-4o': 50_000 } }],
        default_model: { provider: 'fake', model: 'gpt-4o' },
        compact_at_tokens: 20_000,
        permissions: { mode: 'allow' }
      })
    )
    await h.restart()
    const reread = await h.client.call('session.meters', { sessionId: session.id })
    expect(reread).toMatchObject({ contextWindow: 50_000, compactAt: 20_000, contextTokens: null })
    // Loaded back from the store: the same totals.
    expect(reread.totals).toEqual(after.totals)
    const stored = await h.client.call('session.list', { workspace: h.workspace })
    expect(stored.sessions.find((s) => s.id === session.id)?.totals).toEqual(after.totals)
  })

  it('says which session is unknown', async () => {
    const h = await startCoreHarness({ name: 'meters-missing' })
    await expect(h.client.call('session.meters', { sessionId: 'nope' })).rejects.toThrow(
      /there is no session nope/
    )
  })
})
