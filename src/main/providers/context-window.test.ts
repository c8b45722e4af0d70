import { describe, expect, it } from 'vitest'
import { settingsSchema, type SettingsInput } from '../../shared/settings'
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, outputBudgetBytes } from './context-window'

const settings = (extra: Partial<SettingsInput> = {}): ReturnType<typeof settingsSchema.parse> =>
  settingsSchema.parse({
    providers: [
      { id: 'local', kind: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' },
      {
        id: 'tuned',
        kind: 'openai-compatible',
        base_url: 'http://127.0.0.1:8080/v1',
        context_windows: { 'llama3.2': 8192, 'claude-sonnet-4-5': 1_000_000 }
      }
    ],
    ...extra
  })

describe('contextWindowFor', () => {
  it('knows well-known models by the longest matching prefix', () => {
    const s = settings()
    expect(contextWindowFor({ providerId: 'local', model: 'claude-sonnet-4-5' }, s)).toBe(200_000)
    expect(contextWindowFor({ providerId: 'local', model: 'gpt-4o-mini' }, s)).toBe(128_000)
    expect(contextWindowFor({ providerId: 'local', model: 'gpt-4.1' }, s)).toBe(1_047_576)
    expect(contextWindowFor({ providerId: 'local', model: 'gpt-4' }, s)).toBe(8_192)
  })

  it('reads a vendor-prefixed name (OpenRouter style) by its model part', () => {
    expect(
      contextWindowFor({ providerId: 'local', model: 'anthropic/claude-opus-4' }, settings())
    ).toBe(200_000)
  })

  it("prefers the provider's own context_windows setting", () => {
    const s = settings()
    expect(contextWindowFor({ providerId: 'tuned', model: 'llama3.2' }, s)).toBe(8192)
    expect(contextWindowFor({ providerId: 'tuned', model: 'claude-sonnet-4-5' }, s)).toBe(1_000_000)
    // The setting belongs to one provider: the same model elsewhere uses the table.
    expect(contextWindowFor({ providerId: 'local', model: 'llama3.2' }, s)).toBe(
      DEFAULT_CONTEXT_WINDOW
    )
  })
})

describe('outputBudgetBytes', () => {
  it('is an eighth of the context window at 3 bytes a token', () => {
    const s = settings()
    expect(outputBudgetBytes({ providerId: 'local', model: 'claude-sonnet-4-5' }, s)).toBe(75_000)
    expect(outputBudgetBytes({ providerId: 'tuned', model: 'llama3.2' }, s)).toBe(3072)
    expect(outputBudgetBytes({ providerId: 'local', model: 'some-new-model' }, s)).toBe(48_000)
    expect(outputBudgetBytes(null, s)).toBe(48_000)
  })

  it('is the tool_output_budget_bytes setting when there is one', () => {
    const s = settings({ tool_output_budget_bytes: 20_000 })
    expect(outputBudgetBytes({ providerId: 'local', model: 'claude-sonnet-4-5' }, s)).toBe(20_000)
  })

  it('refuses a budget too small to be useful in the settings file', () => {
    const parsed = settingsSchema.safeParse({ tool_output_budget_bytes: 10 })
    expect(parsed.success).toBe(false)
  })
})
