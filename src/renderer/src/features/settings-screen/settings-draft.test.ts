import { describe, expect, it } from 'vitest'
import { buildSettings, sameValue } from '../settings/settings-model'
import { unsavedChanges, unsavedSummary } from './settings-draft'
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

// Key order and an empty base URL differ from what Save builds: neither is an edit.
const file = {
  max_tokens: 4096,
  permissions: { rules: [{ tool: 'Read', decision: 'allow' }], mode: 'ask' },
  providers: [
    {
      models: ['m1'],
      kind: 'openai-compatible',
      id: 'local',
      base_url: 'http://127.0.0.1:1/v1',
      prices: { m1: { input: 1, output: 2 } }
    }
  ],
  mcp: [{ name: 'everything', command: 'node', args: ['server.js'] }],
  appearance: { theme: 'system' }
}

const loaded = run(initialSettingsState, { type: 'loaded', path: 'p', settings: file, issues: [] })

const payload = (state: SettingsState): Record<string, unknown> =>
  buildSettings(state, providersToSave(state).providers)

describe('the settings draft', () => {
  it('has nothing unsaved right after loading, whatever the key order of the file', () => {
    expect(unsavedChanges(loaded, false)).toEqual({ sections: [], any: false })
    expect(unsavedSummary(unsavedChanges(loaded, false))).toBe('')
  })

  it('names each section holding an edit, in page order', () => {
    const state = run(
      loaded,
      { type: 'mcp-server-put', index: null, server: { name: 'more', command: 'node' } },
      { type: 'price-set', providerId: 'local', model: 'm1', entry: { input: 3, output: 4 } },
      { type: 'rule-remove', index: 0 }
    )
    const unsaved = unsavedChanges(state, false)
    expect(unsaved.sections).toEqual(['models', 'permissions', 'mcp'])
    expect(unsavedSummary(unsaved)).toBe('Unsaved changes in Models, Permissions, MCP servers')
  })

  it('puts a price under Models and not under Providers', () => {
    const state = run(loaded, {
      type: 'price-set',
      providerId: 'local',
      model: 'm2',
      entry: { input: 1, output: 1 }
    })
    expect(unsavedChanges(state, false).sections).toEqual(['models'])
  })

  it('counts project or session rules waiting for Save under Permissions', () => {
    expect(unsavedChanges(loaded, true).sections).toEqual(['permissions'])
  })

  it('is clean again when an edit is undone by hand, and when the file is read again (Discard)', () => {
    const toggled = run(loaded, {
      type: 'section-edit',
      key: 'appearance',
      value: { theme: 'dark' }
    })
    expect(unsavedChanges(toggled, false).sections).toEqual(['appearance'])
    const undone = run(toggled, {
      type: 'section-edit',
      key: 'appearance',
      value: { theme: 'system' }
    })
    expect(unsavedChanges(undone, false).any).toBe(false)
    // Discard reads the file again, as loadSettings does: load-started, then loaded.
    const discarded = run(
      toggled,
      { type: 'load-started' },
      { type: 'loaded', path: 'p', settings: file, issues: [] }
    )
    expect(unsavedChanges(discarded, false).any).toBe(false)
    expect(discarded.draft.values.appearance).toEqual({ theme: 'system' })
  })

  it('sends every section in one payload, and nothing is unsaved once it is written', () => {
    const state = run(
      loaded,
      { type: 'mode', mode: 'read-only' },
      { type: 'mcp-server-remove', index: 0 },
      { type: 'price-set', providerId: 'local', model: 'm1', entry: null }
    )
    const sent = payload(state)
    expect(sent).toMatchObject({ permissions: { mode: 'read-only' }, mcp: [], max_tokens: 4096 })
    expect((sent.providers as Record<string, unknown>[])[0]).not.toHaveProperty('prices')
    const { providers } = providersToSave(state)
    const saved = run(state, {
      type: 'saved',
      providers,
      at: 1,
      settings: { draft: state.draft, providers, defaultModel: state.defaultModel }
    })
    expect(unsavedChanges(saved, false).any).toBe(false)
  })

  it('prices the provider open in the form there too, so Save does not drop the price', () => {
    const editing = run(loaded, { type: 'form-open', index: 0 })
    const priced = run(editing, {
      type: 'price-set',
      providerId: 'local',
      model: 'm9',
      entry: { input: 5, output: 6 }
    })
    const providers = payload(priced).providers as { prices?: Record<string, unknown> }[]
    expect(providers[0]?.prices).toMatchObject({ m9: { input: 5, output: 6 } })
  })

  it('keeps a model named __proto__ as a key, not a prototype', () => {
    const state = run(loaded, {
      type: 'price-set',
      providerId: 'local',
      model: '__proto__',
      entry: { input: 1, output: 1 }
    })
    const providers = payload(state).providers as { prices: object }[]
    expect(Object.keys(providers[0]?.prices ?? {})).toContain('__proto__')
    expect(Object.getPrototypeOf(providers[0]?.prices)).toBe(Object.prototype)
  })

  it('takes a file written elsewhere as saved, keeping the edits made here', () => {
    const written = [
      { tool: 'Read', decision: 'allow' },
      { tool: 'Glob', decision: 'allow' }
    ]
    const onDisk = { ...file, permissions: { ...file.permissions, rules: written } }
    const changed: SettingsAction = { type: 'file-changed', settings: onDisk, issues: [] }
    const synced = run(loaded, changed)
    expect(unsavedChanges(synced, false).any).toBe(false)
    expect(payload(synced).permissions).toMatchObject({ mode: 'ask', rules: written })

    // A mode changed here and a rule added by Always allow both survive.
    const kept = run(loaded, { type: 'mode', mode: 'read-only' }, changed)
    expect(payload(kept).permissions).toEqual({ mode: 'read-only', rules: written })
    expect(unsavedChanges(kept, false).sections).toEqual(['permissions'])

    // Rules edited here win over the file's.
    const mine = run(loaded, { type: 'rule-remove', index: 0 }, changed)
    expect(payload(mine).permissions).toMatchObject({ rules: [] })
  })

  it('compares values deeply, ignoring key order only', () => {
    expect(sameValue({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] })).toBe(true)
    expect(sameValue([1, 2], [2, 1])).toBe(false)
    expect(sameValue({ a: undefined }, {})).toBe(true)
    expect(sameValue({ a: null }, {})).toBe(false)
  })
})
