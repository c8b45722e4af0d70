import { beforeEach, describe, expect, it } from 'vitest'
import { useSettings } from '../settings/settings-store'
import { applyServerForm, removeServer, setEnabled, showServerIssues, useMcp } from './mcp-store'
import { emptyDraft } from './mcp-model'

const servers = [
  { name: 'one', command: 'node', args: [] },
  { name: 'two', command: 'node', args: [], env_passthrough: ['LD_PRELOAD'] }
]

const loaded = (): void =>
  useSettings
    .getState()
    .dispatch({ type: 'loaded', path: 'p', settings: { mcp: servers }, issues: [] })

const draftList = (): unknown => useSettings.getState().state.base.mcp

beforeEach(() => {
  loaded()
  useMcp.getState().dispatch({ type: 'form-close' })
})

describe('MCP servers in the settings draft', () => {
  it('adds, unticks and removes servers in the draft only, without saving', () => {
    useMcp.getState().dispatch({
      type: 'form-open',
      editing: null,
      draft: { ...emptyDraft(['one', 'two']), name: 'three', command: 'node' }
    })
    applyServerForm()
    expect(useMcp.getState().state.form.open).toBe(false)
    setEnabled(0, false)
    removeServer(1)
    expect(draftList()).toEqual([
      { name: 'one', command: 'node', args: [], enabled: false },
      expect.objectContaining({ name: 'three', command: 'node' })
    ])
    expect(useSettings.getState().state.saved.mcp).toEqual(servers)
  })

  it('keeps the form open with the reason when the server cannot be written', () => {
    useMcp.getState().dispatch({
      type: 'form-open',
      editing: null,
      draft: { ...emptyDraft(['one', 'two']), name: 'one', command: 'node' }
    })
    applyServerForm()
    expect(useMcp.getState().state.form).toMatchObject({ open: true })
    expect(useMcp.getState().state.form.issues.name).toContain('exists already')
    expect(draftList()).toEqual(servers)
  })

  it('reopens the server the main process refused, its reason beside the field', () => {
    showServerIssues([
      { path: 'settings.max_tokens', message: 'elsewhere' },
      { path: 'settings.mcp.1.env_passthrough', message: 'LD_PRELOAD is never passed through' }
    ])
    const { form } = useMcp.getState().state
    expect(form).toMatchObject({ open: true, editing: 1, draft: { name: 'two' } })
    expect(form.issues.passthrough).toBe('LD_PRELOAD is never passed through')
  })
})
