import { describe, expect, it } from 'vitest'
import type { McpServerView, McpStatus } from '../../../../shared/mcp'
import { emptyDraft } from './mcp-model'
import { awaitingTrust, initialMcpState, mcpReducer, stateLabel, trustKey } from './mcp-reducer'

function view(patch: Partial<McpServerView>): McpServerView {
  return {
    name: 'everything',
    origin: 'user',
    command: 'node',
    args: ['server.js'],
    url: null,
    transport: 'stdio',
    headerNames: [],
    auth: 'none',
    oauth: null,
    envNames: [],
    enabled: true,
    sandbox: false,
    state: 'ready',
    error: null,
    pid: 42,
    restarts: 0,
    tools: [],
    toolNames: {},
    offTools: [],
    resources: [],
    prompts: [],
    logCount: 0,
    ...patch
  }
}

function status(workspace: string | null, servers: McpServerView[]): McpStatus {
  return { workspace, projectFile: null, servers, issues: [] }
}

describe('mcpReducer', () => {
  it('shows only the status of its own folder, so another window’s updates are ignored', () => {
    let state = mcpReducer(initialMcpState, { type: 'status-requested', workspace: '/a' })
    state = mcpReducer(state, { type: 'status-loaded', status: status('/b', [view({})]) })
    expect(state.status).toBeNull()
    state = mcpReducer(state, { type: 'status-loaded', status: status('/a', [view({})]) })
    expect(state.status?.servers).toHaveLength(1)
    expect(state.loading).toBe(false)
  })

  it('editing a field clears the issue shown beside it', () => {
    let state = mcpReducer(initialMcpState, {
      type: 'form-open',
      editing: null,
      draft: emptyDraft([])
    })
    state = mcpReducer(state, {
      type: 'form-issues',
      issues: { command: 'give the program', force: 'bad' }
    })
    state = mcpReducer(state, { type: 'form-edit', patch: { command: 'npx' } })
    expect(state.form.issues).toEqual({ force: 'bad' })
    state = mcpReducer(state, { type: 'form-edit', patch: { forceEgress: 'chosen' } })
    expect(state.form.issues).toEqual({})
  })

  it('asks about an untrusted project server until put off, and again once it changes', () => {
    const untrusted = view({ name: 'repo', origin: 'project', state: 'untrusted' })
    let state = mcpReducer(initialMcpState, { type: 'status-requested', workspace: '/a' })
    state = mcpReducer(state, { type: 'status-loaded', status: status('/a', [untrusted]) })
    expect(awaitingTrust(state).map((s) => s.name)).toEqual(['repo'])
    state = mcpReducer(state, { type: 'dismiss-trust', keys: [trustKey(untrusted)] })
    expect(awaitingTrust(state)).toEqual([])
    const changed = { ...untrusted, args: ['other.js'] }
    state = mcpReducer(state, { type: 'status-loaded', status: status('/a', [changed]) })
    expect(awaitingTrust(state).map((s) => s.name)).toEqual(['repo'])
  })

  it('describes a server’s state in a few words', () => {
    expect(stateLabel(view({ tools: [] }), true)).toBe('Ready · 0 tools')
    expect(stateLabel(undefined, true)).toBe('Not saved yet')
    expect(stateLabel(view({ state: 'idle' }), false)).toBe('Starts when a project folder is open')
  })
})
