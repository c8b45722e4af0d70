import { describe, expect, it } from 'vitest'
import { buildSettings } from '../settings/settings-model'
import { initialSettingsState, settingsReducer } from '../settings/settings-reducer'
import {
  draftFromSettings,
  draftToSettings,
  emptyDraft,
  mergeImported,
  placeServerIssues,
  withEnabled,
  withServer
} from './mcp-model'

const everything = {
  name: 'everything',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  env: { LOG_LEVEL: 'debug' },
  env_passthrough: ['GITHUB_TOKEN'],
  force: { destructive: true }
}

describe('server drafts', () => {
  it('round-trips a configured server through the form, leaving defaults out of the file', () => {
    const draft = draftFromSettings(everything)
    expect(draft.args).toBe('-y\n@modelcontextprotocol/server-everything')
    expect(draft.env).toBe('LOG_LEVEL=debug')
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: everything })
  })

  it('keeps lazy disclosure through the form', () => {
    const lazy = { ...everything, disclose: 'lazy' }
    const draft = draftFromSettings(lazy)
    expect(draft.lazyTools).toBe(true)
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: lazy })
  })

  it('puts problems beside their fields before anything is saved', () => {
    const draft = {
      ...emptyDraft([]),
      name: 'bad name',
      env: 'NO_EQUALS_SIGN',
      passthrough: 'HOME, LD_PRELOAD'
    }
    const result = draftToSettings(draft, [])
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.issues.name).toContain('letters, digits')
    expect(result.issues.command).toContain('give the program to run')
    expect(result.issues.env).toBe('line 1: write NAME=value')
    expect(result.issues.passthrough).toContain('LD_PRELOAD changes how programs load code')
  })

  it('refuses a name another server has', () => {
    const result = draftToSettings({ ...emptyDraft([]), name: 'everything', command: 'x' }, [
      'everything'
    ])
    expect(result).toMatchObject({ ok: false, issues: { name: expect.stringContaining('exists') } })
  })

  it('suggests a free name', () => {
    expect(emptyDraft(['server', 'server-2']).name).toBe('server-3')
  })
})

describe('server lists', () => {
  it('adds, replaces and switches servers off and on', () => {
    const list = withServer([], null, everything)
    expect(withServer(list, 0, { name: 'other', command: 'y' })).toEqual([
      { name: 'other', command: 'y' }
    ])
    const off = withEnabled(list, 0, false)
    expect(off[0]?.enabled).toBe(false)
    expect(withEnabled(off, 0, true)[0]).not.toHaveProperty('enabled')
  })

  it('imports new servers and leaves alone the names already configured', () => {
    const merged = mergeImported(
      [everything],
      [
        { name: 'everything', command: 'evil' },
        { name: 'fs', command: 'npx' }
      ]
    )
    expect(merged.list.map((s) => s.command)).toEqual(['npx', 'npx'])
    expect(merged).toMatchObject({ added: ['fs'], skipped: ['everything'] })
  })

  it('places save issues on the fields of the server being edited', () => {
    const issues = [
      { path: 'mcp.1.env_passthrough.0', message: 'refused' },
      { path: 'mcp.0.command', message: 'other server' }
    ]
    expect(placeServerIssues(issues, 1)).toEqual({ passthrough: 'refused' })
  })

  it('the settings screen keeps the edited list and saves it with everything else', () => {
    const loaded = settingsReducer(initialSettingsState, {
      type: 'loaded',
      path: '/x/settings.yaml',
      settings: { providers: [], mcp: [], max_tokens: 1000 },
      issues: []
    })
    const edited = settingsReducer(loaded, { type: 'base-set', key: 'mcp', value: [everything] })
    expect(edited.dirty).toBe(true)
    expect(buildSettings(edited, edited.providers)).toMatchObject({
      mcp: [everything],
      max_tokens: 1000
    })
  })
})
