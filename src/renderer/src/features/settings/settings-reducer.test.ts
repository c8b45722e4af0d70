import { describe, expect, it } from 'vitest'
import { approvalModeOf } from './draft-lists'
import { buildSettings, placeIssues, readSettings } from './settings-model'
import {
  initialSettingsState,
  providersToSave,
  settingsReducer,
  type SettingsAction,
  type SettingsState
} from './settings-reducer'

function run(state: SettingsState, ...actions: SettingsAction[]): SettingsState {
  return actions.reduce(settingsReducer, state)
}

const fileWithOne = {
  providers: [
    { id: 'anthropic', kind: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY', models: ['claude-a'] }
  ],
  default_model: { provider: 'anthropic', model: 'claude-a' },
  permissions: { mode: 'ask' },
  max_tokens: 4096
}

const loadedEmpty = run(initialSettingsState, {
  type: 'loaded',
  path: '/home/u/.mecatl/settings.yaml',
  settings: {},
  issues: []
})

describe('settingsReducer', () => {
  it('opens the add form right away when there is no provider', () => {
    expect(loadedEmpty.form).toMatchObject({ open: true, editing: null, touched: false })
    expect(loadedEmpty.form.draft.id).toBe('anthropic')
  })

  it('suggests an id per kind until the person types one', () => {
    let state = run(loadedEmpty, { type: 'form-kind', kind: 'openai-compatible' })
    expect(state.form.draft.id).toBe('local')
    state = run(
      state,
      { type: 'form-field', field: 'id', value: 'ollama' },
      { type: 'form-kind', kind: 'openai' }
    )
    expect(state.form.draft.id).toBe('ollama')
  })

  it('saves tested models into the provider and picks a first default', () => {
    const state = run(
      loadedEmpty,
      { type: 'form-kind', kind: 'openai-compatible' },
      { type: 'form-field', field: 'baseUrl', value: 'http://127.0.0.1:11434/v1' },
      { type: 'test-started' },
      { type: 'test-ok', models: ['qwen', 'llama'] }
    )
    expect(state.form.draft.models).toEqual(['qwen', 'llama'])
    expect(state.defaultModel).toEqual({ providerId: 'local', model: 'qwen' })
    const { providers, formIndex } = providersToSave(state)
    expect(formIndex).toBe(0)
    expect(buildSettings(state, providers)).toEqual({
      providers: [
        {
          id: 'local',
          kind: 'openai-compatible',
          base_url: 'http://127.0.0.1:11434/v1',
          models: ['qwen', 'llama']
        }
      ],
      permissions: { mode: 'ask' },
      default_model: { provider: 'local', model: 'qwen' }
    })
  })

  it('moves the default model along when the provider id changes', () => {
    const state = run(
      loadedEmpty,
      { type: 'test-ok', models: ['claude-a'] },
      { type: 'form-field', field: 'id', value: 'work' }
    )
    expect(state.defaultModel).toEqual({ providerId: 'work', model: 'claude-a' })
  })

  it('keeps what was typed when the save is rejected and places the issues', () => {
    const typed = run(
      loadedEmpty,
      { type: 'form-kind', kind: 'openai-compatible' },
      { type: 'form-field', field: 'keyEnv', value: 'sk-123' }
    )
    const { formIndex } = providersToSave(typed)
    const issues = [
      { path: 'providers.0.base_url', message: 'an OpenAI-compatible provider needs a base URL' },
      {
        path: 'providers.0.api_key_env',
        message: 'must be the name of an environment variable, not a key'
      }
    ]
    const state = run(typed, { type: 'save-started', formIndex }, { type: 'save-rejected', issues })
    expect(state.form.draft.keyEnv).toBe('sk-123')
    expect(state.saving).toBe(false)
    expect(placeIssues(state.saveIssues, state.formIndex).form).toEqual({
      base_url: 'an OpenAI-compatible provider needs a base URL',
      api_key_env: 'must be the name of an environment variable, not a key'
    })
  })

  it('leaves an untouched add form out of the save', () => {
    const state = run(loadedEmpty, { type: 'mode', mode: 'read-only' })
    expect(providersToSave(state)).toEqual({ providers: [], formIndex: null })
    expect(buildSettings(state, [])).toEqual({ providers: [], permissions: { mode: 'read-only' } })
  })

  it('edits an existing provider in place and keeps unknown keys', () => {
    let state = run(initialSettingsState, {
      type: 'loaded',
      path: 'p',
      settings: fileWithOne,
      issues: []
    })
    expect(state.form.open).toBe(false)
    state = run(
      state,
      { type: 'form-open', index: 0 },
      { type: 'form-field', field: 'keyEnv', value: 'WORK_KEY' }
    )
    const { providers, formIndex } = providersToSave(state)
    expect(formIndex).toBe(0)
    const saved = buildSettings(state, providers)
    expect(saved).toMatchObject({
      max_tokens: 4096,
      providers: [{ id: 'anthropic', api_key_env: 'WORK_KEY' }]
    })
    state = run(state, { type: 'saved', providers, at: 1 })
    expect(state).toMatchObject({ dirty: false, savedAt: 1, form: { open: false } })
  })

  it('forgets the default model of a removed provider', () => {
    let state = run(initialSettingsState, {
      type: 'loaded',
      path: 'p',
      settings: fileWithOne,
      issues: []
    })
    state = run(state, { type: 'remove-provider', index: 0 })
    expect(state.providers).toEqual([])
    expect(state.defaultModel).toBeNull()
  })

  it('records a stored secret by name and forgets the value', () => {
    const state = run(
      loadedEmpty,
      { type: 'secret-value', value: 'sk-secret' },
      { type: 'secret-started' },
      { type: 'secret-stored', name: 'anthropic.api_key' }
    )
    expect(state.form.draft.keySecret).toBe('anthropic.api_key')
    expect(state.form.secretValue).toBe('')
  })

  it('shows test failures with field issues', () => {
    const state = run(loadedEmpty, {
      type: 'test-failed',
      error: 'invalid provider',
      issues: [{ path: 'provider.base_url', message: 'Invalid URL' }]
    })
    expect(state.form.test).toEqual({
      status: 'failed',
      error: 'invalid provider',
      issues: { base_url: 'Invalid URL' }
    })
  })
})

describe('readSettings', () => {
  it('reads a malformed file leniently', () => {
    const view = readSettings({
      providers: [{ id: 'x', kind: 'weird', models: [1, 'm'] }, 'junk'],
      permissions: 'no'
    })
    expect(view.providers).toEqual([
      { kind: 'openai-compatible', id: 'x', baseUrl: '', keyEnv: '', keySecret: '', models: ['m'] }
    ])
    expect(approvalModeOf(view.draft)).toBe('ask')
    expect(readSettings(null).providers).toEqual([])
  })

  it('keeps provider settings the form does not edit when it saves', () => {
    const provider = {
      id: 'local',
      kind: 'openai-compatible',
      base_url: 'http://127.0.0.1:11434/v1',
      models: ['llama3.2'],
      context_windows: { 'llama3.2': 8192 }
    }
    const view = readSettings({ providers: [provider] })
    expect(buildSettings(view, view.providers).providers).toEqual([provider])
  })
})

describe('file-changed', () => {
  it('keeps a rule saved elsewhere when Save writes the file again, without unsaved changes', () => {
    const loaded = run(initialSettingsState, {
      type: 'loaded',
      path: '/s.yaml',
      settings: fileWithOne,
      issues: []
    })
    const permissions = { mode: 'ask', rules: [{ tool: 'Write', decision: 'allow' }] }
    const synced = run(loaded, {
      type: 'file-changed',
      settings: { ...fileWithOne, permissions },
      issues: []
    })
    expect(synced.dirty).toBe(false)
    const mode = run(synced, { type: 'mode', mode: 'read-only' })
    expect(buildSettings(mode, mode.providers).permissions).toEqual({
      mode: 'read-only',
      rules: [{ tool: 'Write', decision: 'allow' }]
    })
  })

  it('is not taken before the file was read: opening Settings reads it then', () => {
    const before = run(initialSettingsState, { type: 'file-changed', settings: {}, issues: [] })
    expect(before).toBe(initialSettingsState)
  })
})

describe('loaded', () => {
  const theme = (state: SettingsState): unknown => buildSettings(state, state.providers).appearance
  const started = run(loadedEmpty, { type: 'load-started' })
  const dark: SettingsAction = {
    type: 'section-edit',
    key: 'appearance',
    value: { theme: 'dark' }
  }

  it('keeps an edit made while the file was being read, with the file under it', () => {
    const edited = run(started, dark)
    const answered = run(edited, {
      type: 'loaded',
      path: '/s.yaml',
      settings: { ...fileWithOne, appearance: { theme: 'light' } },
      issues: []
    })
    expect(answered).toMatchObject({ status: 'ready', dirty: true, path: '/s.yaml' })
    expect(theme(answered)).toEqual({ theme: 'dark' })
    expect(answered.providers.map((p) => p.id)).toEqual(['anthropic'])
  })

  it('replaces edits made before the read began (Discard reads the file again)', () => {
    const edited = run(loadedEmpty, dark)
    expect(edited.dirty).toBe(true)
    const discarded = run(
      edited,
      { type: 'load-started' },
      { type: 'loaded', path: '/s.yaml', settings: fileWithOne, issues: [] }
    )
    expect(discarded.dirty).toBe(false)
    expect(theme(discarded)).toBeUndefined()
  })
})
