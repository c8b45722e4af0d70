import { describe, expect, it } from 'vitest'
import { providerSettingsSchema } from '../../shared/settings'
import { startCoreHarness } from '../../../testing/core-harness'
import { anthropicThinkingRefusal, fakeSignature } from '../../../testing/fake-model-thinking'

// Reasoning settings fail closed (the wrong knob for a provider is an error, not ignored), the
// OpenAI wire gets `reasoning_effort`, and the fake Anthropic API refuses what the real one would.

describe('reasoning settings', () => {
  it('takes a thinking budget for Anthropic and an effort for OpenAI', () => {
    const anthropic = providerSettingsSchema.safeParse({
      id: 'a',
      kind: 'anthropic',
      reasoning: { 'claude-sonnet-4-5': { thinking_budget: 8000 } }
    })
    expect(anthropic.success).toBe(true)
    const openai = providerSettingsSchema.safeParse({
      id: 'o',
      kind: 'openai',
      reasoning: { o3: { effort: 'high' } }
    })
    expect(openai.success).toBe(true)
  })

  it('refuses the other provider’s knob, a budget under 1024 and unknown keys', () => {
    const messages = (value: unknown): string[] => {
      const parsed = providerSettingsSchema.safeParse(value)
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message)
    }
    expect(messages({ id: 'a', kind: 'anthropic', reasoning: { m: { effort: 'high' } } })).toEqual([
      'Anthropic models take `thinking_budget` (tokens), not `effort`'
    ])
    expect(
      messages({ id: 'o', kind: 'openai', reasoning: { m: { thinking_budget: 2000 } } })
    ).toEqual(['OpenAI reasoning models take `effort` (minimal, low, medium, high), not a budget'])
    expect(
      messages({ id: 'a', kind: 'anthropic', reasoning: { m: { thinking_budget: 500 } } })
    ).toEqual(['the Anthropic API takes a budget of at least 1024'])
    expect(
      messages({ id: 'a', kind: 'anthropic', reasoning: { m: { budget: 5000 } } }).length
    ).toBe(1)
  })
})

describe('reasoning effort (OpenAI)', () => {
  it('is sent as reasoning_effort for the model that has it', async () => {
    const h = await startCoreHarness({ name: 'effort', format: 'openai' })
    const { settings } = await h.client.call('settings.get', {})
    const raw = settings as { providers: Record<string, unknown>[] }
    await h.client.call('settings.save', {
      settings: {
        ...raw,
        providers: raw.providers.map((p) => ({
          ...p,
          reasoning: { 'fake-model': { effort: 'low' } }
        }))
      }
    })
    h.fake.setScript([{ text: 'ok' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: id, text: 'hi' })
    await h.core.sessions.idle(id)
    const body = h.fake.requests.find((r) => r.path.endsWith('/chat/completions'))?.body
    expect(body).toMatchObject({ reasoning_effort: 'low' })
  })
})

describe('the fake Anthropic API checks thinking as the real one does', () => {
  const toolTurn = (first: Record<string, unknown>[]): Record<string, unknown> => ({
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [...first, { type: 'tool_use', id: 't', name: 'R', input: {} }]
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }
    ]
  })

  it('refuses a tool-use turn whose thinking was dropped', () => {
    expect(anthropicThinkingRefusal(toolTurn([]))).toMatch(/must start with a thinking block/)
  })

  it('refuses thinking whose text was changed after it was signed', () => {
    const block = { type: 'thinking', thinking: 'plan B', signature: fakeSignature('plan A') }
    expect(anthropicThinkingRefusal(toolTurn([block]))).toMatch(/Invalid `signature`/)
  })

  it('takes the thinking back as it was given', () => {
    const block = { type: 'thinking', thinking: 'plan A', signature: fakeSignature('plan A') }
    expect(anthropicThinkingRefusal(toolTurn([block]))).toBe(null)
  })
})
