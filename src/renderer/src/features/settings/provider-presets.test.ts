import { describe, expect, it } from 'vitest'
import { providerPresets } from '../../../../shared/provider-presets'
import { settingsSchema } from '../../../../shared/settings'
import { buildSettings } from './settings-model'
import { initialSettingsState, providersToSave, settingsReducer } from './settings-reducer'

const loaded = settingsReducer(initialSettingsState, {
  type: 'loaded',
  path: '/home/u/.mecatl/settings.yaml',
  settings: {
    providers: [{ id: 'ollama', kind: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' }]
  },
  issues: []
})

function preset(id: string): (typeof providerPresets)[number] {
  const found = providerPresets.find((p) => p.id === id)
  if (!found) throw new Error(`no preset ${id}`)
  return found
}

describe('provider presets', () => {
  it('offer Ollama, LM Studio, OpenRouter, Groq and Google with their address and key variable', () => {
    expect(providerPresets.map((p) => [p.label, p.baseUrl, p.keyEnv ?? null])).toEqual([
      ['Ollama', 'http://127.0.0.1:11434/v1', null],
      ['LM Studio', 'http://127.0.0.1:1234/v1', null],
      ['OpenRouter', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'],
      ['Groq', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY'],
      [
        'Google Gemini (OpenAI-compatible)',
        'https://generativelanguage.googleapis.com/v1beta/openai',
        'GEMINI_API_KEY'
      ]
    ])
  })

  it('fill the form, with a free id, and save as valid settings', () => {
    for (const p of providerPresets) {
      const state = settingsReducer(loaded, { type: 'form-preset', preset: p })
      expect(state.form.draft).toMatchObject({
        kind: 'openai-compatible',
        baseUrl: p.baseUrl,
        keyEnv: p.keyEnv ?? ''
      })
      expect(state.form.draft.id).toBe(p.id === 'ollama' ? 'ollama-2' : p.id)
      const saved = buildSettings(state, providersToSave(state).providers)
      expect(settingsSchema.safeParse(saved).success, p.id).toBe(true)
    }
  })

  it('keep an id the person typed', () => {
    let state = settingsReducer(loaded, { type: 'form-field', field: 'id', value: 'box' })
    state = settingsReducer(state, { type: 'form-preset', preset: preset('groq') })
    expect(state.form.draft.id).toBe('box')
  })
})
