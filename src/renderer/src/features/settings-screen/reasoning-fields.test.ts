import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../../../shared/settings'
import { buildSettings, readSettings } from '../settings/settings-model'
import {
  initialSettingsState,
  providersToSave,
  settingsReducer,
  type SettingsAction,
  type SettingsState
} from '../settings/settings-reducer'

function run(state: SettingsState, ...actions: SettingsAction[]): SettingsState {
  return actions.reduce(settingsReducer, state)
}

const file = {
  providers: [
    {
      id: 'anthropic',
      kind: 'anthropic',
      api_key_env: 'ANTHROPIC_API_KEY',
      models: ['claude-a', 'claude-b'],
      context_windows: { 'claude-a': 200000 },
      reasoning: { 'claude-b': { thinking_budget: 5000 } }
    }
  ],
  permissions: { mode: 'ask' }
}

describe('reasoning in the provider form', () => {
  it('sets one model’s budget, keeps the others’ and the other fields, and saves valid settings', () => {
    const state = run(
      initialSettingsState,
      { type: 'loaded', path: '/s.yaml', settings: file, issues: [] },
      { type: 'form-open', index: 0 },
      { type: 'form-reasoning', model: 'claude-a', reasoning: { thinking_budget: 16384 } }
    )
    const saved = buildSettings(readSettings(file), providersToSave(state).providers) as typeof file
    expect(saved.providers[0]).toMatchObject({
      context_windows: { 'claude-a': 200000 },
      reasoning: { 'claude-a': { thinking_budget: 16384 }, 'claude-b': { thinking_budget: 5000 } }
    })
    expect(settingsSchema.safeParse(saved).success).toBe(true)
  })

  it('turning every model off removes the map', () => {
    const state = run(
      initialSettingsState,
      { type: 'loaded', path: '/s.yaml', settings: file, issues: [] },
      { type: 'form-open', index: 0 },
      { type: 'form-reasoning', model: 'claude-b', reasoning: null }
    )
    const saved = buildSettings(readSettings(file), providersToSave(state).providers) as typeof file
    expect(saved.providers[0]).not.toHaveProperty('reasoning')
    expect(saved.providers[0]).toHaveProperty('context_windows')
  })
})
