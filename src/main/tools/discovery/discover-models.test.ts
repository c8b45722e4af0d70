import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../../shared/settings'
import { modelInventory } from '../../providers/model-inventory'
import { outputText } from '../tool'
import { discoverModelsTool } from './discover-models'

const settings = settingsSchema.parse({
  providers: [
    {
      id: 'claude',
      kind: 'anthropic',
      api_key_env: 'ANTHROPIC_SECRET_NAME',
      models: ['claude-sonnet-4-5']
    },
    {
      id: 'local',
      kind: 'openai-compatible',
      base_url: 'http://alice:hunter2@127.0.0.1:11434/v1',
      api_key_secret: 'stored-local-key',
      models: ['llama3.2', 'qwen2.5vl'],
      context_windows: { 'llama3.2': 32768 }
    }
  ],
  default_model: { provider: 'local', model: 'llama3.2' }
})

describe('DiscoverModels', () => {
  it('gives exact provider and model ids, windows and image support, and no secrets', async () => {
    const tool = discoverModelsTool(async () => settings)
    const output = await tool.call({}, undefined as never)
    const text = outputText(output.content)
    expect(output.isError).toBe(false)
    expect(JSON.parse(text)).toEqual({
      models: [
        {
          provider_id: 'claude',
          provider_kind: 'anthropic',
          model_id: 'claude-sonnet-4-5',
          context_window: 200_000,
          images: true,
          default: false
        },
        {
          provider_id: 'local',
          provider_kind: 'openai-compatible',
          model_id: 'llama3.2',
          context_window: 32768,
          images: false,
          default: true
        },
        {
          provider_id: 'local',
          provider_kind: 'openai-compatible',
          model_id: 'qwen2.5vl',
          context_window: 128_000,
          images: true,
          default: false
        }
      ]
    })
    for (const secret of [
      'ANTHROPIC_SECRET_NAME',
      'stored-local-key',
      'alice',
      'hunter2',
      '11434'
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(tool.readOnly).toBe(true)
  })

  it('is the same inventory the model picker is given', () => {
    expect(modelInventory(settings).map((m) => [m.providerId, m.model, m.contextWindow])).toEqual([
      ['claude', 'claude-sonnet-4-5', 200_000],
      ['local', 'llama3.2', 32768],
      ['local', 'qwen2.5vl', 128_000]
    ])
  })
})
