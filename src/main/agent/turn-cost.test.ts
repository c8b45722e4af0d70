import { writeFile } from 'node:fs/promises'
import YAML from 'yaml'
import { describe, expect, it } from 'vitest'
import type { EventFrame } from '../../shared/contract/bridge'
import type { TranscriptItem } from '../../shared/domain'
import { PRICES_TAKEN } from '../../shared/model-prices'
import { fakeProvider, startCoreHarness, type CoreHarness } from '../../../testing/core-harness'

async function turn(h: CoreHarness, text: string): Promise<TranscriptItem[]> {
  const session = await h.client.call('session.create', { workspace: h.workspace })
  await h.client.call('session.send', { sessionId: session.id, text })
  await h.core.sessions.idle(session.id)
  return (await h.client.call('session.get', { sessionId: session.id })).transcript
}

function completed(events: EventFrame[]): unknown[] {
  return events.filter((f) => f.event === 'turn.completed').map((f) => f.payload)
}

describe('the cost of a turn', () => {
  it('is computed from the price table over every reply of the turn, on the event and the record', async () => {
    const h = await startCoreHarness({
      name: 'cost',
      format: 'openai',
      files: { 'a.txt': 'alpha\n' },
      settings: { default_model: { provider: 'fake', model: 'gpt-4o-2024-08-06' } },
      script: [
        {
          toolCalls: [{ name: 'Read', input: { path: 'a.txt' } }],
          usage: { input: 300_000, output: 100_000, cached: 0 }
        },
        { text: 'It says alpha.', usage: { input: 700_000, output: 100_000, cached: 400_000 } }
      ]
    })
    const transcript = await turn(h, 'What is in a.txt?')
    // gpt-4o: $2.50 fresh input, $1.25 cached, $10 output per million tokens.
    // Fresh 300k + 300k, cached 400k, out 200k: 1.5 + 0.5 + 2 = $4.
    const end = transcript.find((item) => item.kind === 'turn-end')
    expect(end).toMatchObject({ cost: { source: 'table', asOf: PRICES_TAKEN } })
    expect(end?.kind === 'turn-end' ? end.cost?.usd : null).toBeCloseTo(4, 10)
    expect(completed(h.events)).toEqual([
      expect.objectContaining({
        cost: {
          usd: end?.kind === 'turn-end' ? end.cost?.usd : -1,
          source: 'table',
          asOf: PRICES_TAKEN
        }
      })
    ])
  })

  it('prices what Anthropic wrote to its cache apart from fresh and cached input', async () => {
    const h = await startCoreHarness({
      name: 'cost-cache-write',
      format: 'anthropic',
      settings: { default_model: { provider: 'fake', model: 'claude-sonnet-4-5' } },
      // Anthropic's input_tokens is the fresh part; reads and writes are counted beside it.
      script: [
        {
          text: 'Hi.',
          usage: { input: 100_000, output: 0, cached: 500_000, cacheCreation: 400_000 }
        }
      ]
    })
    const transcript = await turn(h, 'Hello')
    const end = transcript.find((item) => item.kind === 'turn-end')
    expect(end?.kind === 'turn-end' ? end.usage : null).toMatchObject({
      inputTokens: 1_000_000,
      cachedTokens: 500_000,
      cacheWriteTokens: 400_000
    })
    // Sonnet 4.5: $3 fresh, $3.75 written, $0.30 read per million: 0.3 + 1.5 + 0.15 = $1.95.
    expect(end?.kind === 'turn-end' ? end.cost?.usd : null).toBeCloseTo(1.95, 10)
  })

  it('takes the provider’s own price from the settings over the table', async () => {
    const h = await startCoreHarness({
      name: 'cost-override',
      format: 'openai',
      settings: { default_model: { provider: 'fake', model: 'gpt-4o' } },
      script: [{ text: 'Hi.', usage: { input: 1_000_000, output: 1_000_000, cached: 500_000 } }]
    })
    const provider = {
      ...fakeProvider(h.fake, 'openai'),
      prices: { 'gpt-4o': { input: 0.5, output: 3, cache_read: 0.2 } }
    }
    await writeFile(
      h.config,
      YAML.stringify({
        providers: [provider],
        default_model: { provider: 'fake', model: 'gpt-4o' },
        permissions: { mode: 'allow' }
      })
    )
    await h.restart()
    const transcript = await turn(h, 'Hello')
    const end = transcript.find((item) => item.kind === 'turn-end')
    // 500k fresh at $0.50, 500k cached at $0.20, 1M out at $3.
    expect(end).toMatchObject({ cost: { source: 'settings' } })
    expect(end?.kind === 'turn-end' ? end.cost?.usd : null).toBeCloseTo(3.35, 10)
  })

  it('is null for a model no table or setting prices, rather than a guess', async () => {
    const h = await startCoreHarness({
      name: 'cost-unknown',
      format: 'openai-compatible',
      script: [{ text: 'Hi.', usage: { input: 10, output: 10, cached: 0 } }]
    })
    const transcript = await turn(h, 'Hello')
    expect(transcript.find((item) => item.kind === 'turn-end')).toMatchObject({ cost: null })
    expect(completed(h.events)).toEqual([expect.objectContaining({ cost: null })])
  })
})
