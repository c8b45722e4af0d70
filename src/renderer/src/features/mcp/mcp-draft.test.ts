import { beforeEach, describe, expect, it } from 'vitest'
import { mcpEntriesOf } from '../settings/draft-lists'
import { buildSettings } from '../settings/settings-model'
import { useSettings } from '../settings/settings-store'
import {
  applyServerForm,
  removeServer,
  setEnabled,
  setToolEnabled,
  showServerIssues
} from './mcp-draft'
import { draftFromSettings, emptyDraft, serversOf } from './mcp-model'
import { useMcp } from './mcp-store'

const servers = [
  { name: 'one', command: 'node', args: [] },
  { name: 'two', command: 'node', args: [], env_passthrough: ['LD_PRELOAD'] }
]

const settings = useSettings.getState()
// As loadSettings reads the file: load-started, then loaded.
const load = (file: Record<string, unknown>): void => {
  settings.dispatch({ type: 'load-started' })
  settings.dispatch({ type: 'loaded', path: 'p', settings: file, issues: [] })
}

// What the MCP section lists, and what Save sends: both read the one draft.
const shown = (): string[] =>
  serversOf(mcpEntriesOf(useSettings.getState().state.draft)).map((s) => String(s.name))
const sent = (): unknown => {
  const { state } = useSettings.getState()
  return buildSettings(state, state.providers).mcp
}

beforeEach(() => {
  load({ mcp: servers })
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
    expect(sent()).toEqual([
      { name: 'one', command: 'node', args: [], enabled: false },
      { name: 'three', command: 'node', args: [] }
    ])
    expect(shown()).toEqual(['one', 'three'])
    expect(useSettings.getState().state.saved.draft.unread.mcp).toEqual(servers)
  })

  it('puts a server edited in its form in the draft that Save sends, typed', () => {
    load({ mcp: [servers[0]] })
    useMcp.getState().dispatch({
      type: 'form-open',
      editing: 0,
      draft: { ...draftFromSettings(servers[0]), args: 'server.js' }
    })
    applyServerForm()
    setToolEnabled(0, 'echo', false)
    const { draft } = useSettings.getState().state
    expect(draft.values.mcp).toEqual([
      { name: 'one', command: 'node', args: ['server.js'], disabled_tools: ['echo'] }
    ])
    expect(sent()).toEqual(draft.values.mcp)
  })

  it('shows the list the draft holds after Discard and after the file changed elsewhere', () => {
    removeServer(0)
    expect(shown()).toEqual(['two'])
    load({ mcp: servers })
    expect(shown()).toEqual(['one', 'two'])
    settings.dispatch({
      type: 'file-changed',
      settings: { mcp: [...servers, { name: 'four', command: 'node' }] },
      issues: []
    })
    expect(shown()).toEqual(['one', 'two', 'four'])
  })

  it('keeps the form open with the reason when the server cannot be written', () => {
    useMcp.getState().dispatch({
      type: 'form-open',
      editing: null,
      draft: { ...emptyDraft(['one', 'two']), name: 'one', command: 'node' }
    })
    applyServerForm()
    expect(useMcp.getState().state.form).toMatchObject({ open: true, draft: { name: 'one' } })
    expect(useMcp.getState().state.form.issues.name).toContain('exists already')
    expect(sent()).toEqual(servers)
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
