import type { McpLogLine, McpServerView, McpStatus } from '../../../../shared/mcp'
import { emptyDraft, type DraftIssues, type ServerDraft } from './mcp-model'

export type DetailTab = 'tools' | 'resources' | 'prompts' | 'log'

export interface ServerForm {
  open: boolean
  /** The index in the user's `mcp` list being edited, or null when adding. */
  editing: number | null
  draft: ServerDraft
  issues: DraftIssues
  saving: boolean
}

export interface Importer {
  open: boolean
  path: string
  text: string
  busy: boolean
  error: string | null
  notes: string[]
}

export interface McpState {
  /** The folder whose servers are shown (null on the welcome screen). */
  workspace: string | null
  status: McpStatus | null
  loading: boolean
  error: string | null
  /** The server whose details are open, and which of them. */
  expanded: string | null
  tab: DetailTab
  logs: Record<string, McpLogLine[]>
  form: ServerForm
  importer: Importer
  /** Servers with a restart or trust change in flight. */
  busy: string[]
  actionError: string | null
  /** Untrusted project servers the person said "not now" to, by name and command. */
  dismissed: string[]
}

export type McpAction =
  | { type: 'status-requested'; workspace: string | null }
  | { type: 'status-loaded'; status: McpStatus }
  | { type: 'status-failed'; error: string }
  | { type: 'expand'; name: string | null; tab?: DetailTab }
  | { type: 'log-loaded'; name: string; lines: McpLogLine[] }
  | { type: 'form-open'; editing: number | null; draft: ServerDraft }
  | { type: 'form-edit'; patch: Partial<ServerDraft> }
  | { type: 'form-issues'; issues: DraftIssues }
  | { type: 'form-saving'; saving: boolean }
  | { type: 'form-close' }
  | { type: 'import-toggle'; open: boolean }
  | { type: 'import-field'; field: 'path' | 'text'; value: string }
  | { type: 'import-started' }
  | { type: 'import-failed'; error: string }
  | { type: 'import-done'; notes: string[] }
  | { type: 'busy'; name: string; busy: boolean }
  | { type: 'action-failed'; error: string | null }
  | { type: 'dismiss-trust'; keys: string[] }

const closedForm: ServerForm = {
  open: false,
  editing: null,
  draft: emptyDraft([]),
  issues: {},
  saving: false
}

export const initialMcpState: McpState = {
  workspace: null,
  status: null,
  loading: false,
  error: null,
  expanded: null,
  tab: 'tools',
  logs: {},
  form: closedForm,
  importer: { open: false, path: '', text: '', busy: false, error: null, notes: [] },
  busy: [],
  actionError: null,
  dismissed: []
}

export function mcpReducer(state: McpState, action: McpAction): McpState {
  switch (action.type) {
    case 'status-requested':
      return action.workspace === state.workspace
        ? { ...state, loading: true, error: null }
        : { ...state, workspace: action.workspace, status: null, loading: true, error: null }
    case 'status-loaded':
      // Updates for another folder (another window's, in browser mode) are not ours to show.
      if (action.status.workspace !== state.workspace) return state
      return { ...state, status: action.status, loading: false, error: null }
    case 'status-failed':
      return { ...state, loading: false, error: action.error }
    case 'expand':
      return {
        ...state,
        expanded: action.name,
        tab: action.tab ?? (action.name === state.expanded ? state.tab : 'tools')
      }
    case 'log-loaded':
      return { ...state, logs: { ...state.logs, [action.name]: action.lines } }
    case 'form-open':
      return {
        ...state,
        form: { ...closedForm, open: true, editing: action.editing, draft: action.draft },
        importer: { ...state.importer, open: false }
      }
    case 'form-edit': {
      const issues = { ...state.form.issues }
      for (const key of Object.keys(action.patch)) delete issues[fieldOf(key)]
      return {
        ...state,
        form: { ...state.form, draft: { ...state.form.draft, ...action.patch }, issues }
      }
    }
    case 'form-issues':
      return { ...state, form: { ...state.form, issues: action.issues, saving: false } }
    case 'form-saving':
      return { ...state, form: { ...state.form, saving: action.saving } }
    case 'form-close':
      return { ...state, form: closedForm }
    case 'import-toggle':
      return {
        ...state,
        importer: { ...initialMcpState.importer, open: action.open },
        form: action.open ? closedForm : state.form
      }
    case 'import-field':
      return {
        ...state,
        importer: { ...state.importer, [action.field]: action.value, error: null }
      }
    case 'import-started':
      return { ...state, importer: { ...state.importer, busy: true, error: null, notes: [] } }
    case 'import-failed':
      return { ...state, importer: { ...state.importer, busy: false, error: action.error } }
    case 'import-done':
      return {
        ...state,
        importer: { ...state.importer, busy: false, path: '', text: '', notes: action.notes }
      }
    case 'busy':
      return {
        ...state,
        busy: action.busy
          ? [...state.busy.filter((n) => n !== action.name), action.name]
          : state.busy.filter((n) => n !== action.name)
      }
    case 'action-failed':
      return { ...state, actionError: action.error }
    case 'dismiss-trust':
      return { ...state, dismissed: [...new Set([...state.dismissed, ...action.keys])] }
  }
}

// Editing a field clears the issue shown beside it.
function fieldOf(key: string): keyof DraftIssues {
  if (key === 'forceUntrusted' || key === 'forceDestructive' || key === 'forceEgress')
    return 'force'
  return key as keyof DraftIssues
}

/** A key for "this exact definition", so a changed project server is asked about again. */
export function trustKey(server: McpServerView): string {
  return JSON.stringify([server.name, server.command, server.args, server.envNames])
}

/** Project servers waiting for the person's approval that were not put off in this window. */
export function awaitingTrust(state: McpState): McpServerView[] {
  return (state.status?.servers ?? []).filter(
    (server) => server.state === 'untrusted' && !state.dismissed.includes(trustKey(server))
  )
}

/** A server's state in a few words, for its row. */
export function stateLabel(view: McpServerView | undefined, hasWorkspace: boolean): string {
  if (!view) return 'Not saved yet'
  switch (view.state) {
    case 'ready':
      return `Ready · ${view.tools.length} tool${view.tools.length === 1 ? '' : 's'}`
    case 'starting':
      return 'Starting…'
    case 'restarting':
      return `Restarting… (${view.restarts} restart${view.restarts === 1 ? '' : 's'})`
    case 'failed':
      return 'Failed'
    case 'disabled':
      return 'Disabled'
    case 'untrusted':
      return 'Not trusted'
    case 'idle':
      return hasWorkspace ? 'Stopped' : 'Starts when a project folder is open'
    case 'needs-sign-in':
      return view.oauth?.state === 'signing-in' ? 'Signing in…' : 'Needs sign-in'
  }
}
