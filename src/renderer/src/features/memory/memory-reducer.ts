import type { CallOutput } from '../../../../shared/contract'
import type { MemoryListItem, MemoryRevision, MemoryScope } from '../../../../shared/memory'

/** A memory as the browser shows it: its state, history and who created it. */
export type MemoryInspection = CallOutput<'memory.inspect'>

export type MemoryAction = 'forget' | 'undo'

export interface MemoryState {
  scope: MemoryScope
  /** The open project (its memories are the project scope); null in a window without one. */
  workspace: string | null
  query: string
  items: MemoryListItem[]
  listStatus: 'idle' | 'loading' | 'ready' | 'error'
  listError: string | null
  /** Numbers list requests, so the answer to an older query never replaces a newer one. */
  listRequest: number
  selected: string | null
  detail: MemoryInspection | null
  detailError: string | null
  /** The action waiting for the person's confirmation, on the version shown. */
  confirming: MemoryAction | null
  busy: boolean
  actionError: string | null
  /** What the last action did, said once. */
  notice: string | null
}

export type MemoryEvent =
  | { type: 'workspace'; workspace: string | null }
  | { type: 'scope'; scope: MemoryScope }
  | { type: 'query'; query: string }
  | { type: 'list-requested'; request: number }
  | { type: 'list-loaded'; request: number; items: MemoryListItem[] }
  | { type: 'list-failed'; request: number; error: string }
  | { type: 'select'; name: string | null }
  | { type: 'detail-loaded'; detail: MemoryInspection }
  | { type: 'detail-failed'; name: string; error: string }
  | { type: 'confirm'; action: MemoryAction | null }
  | { type: 'action-started' }
  | { type: 'action-done'; action: MemoryAction; detail: MemoryInspection }
  | { type: 'action-failed'; error: string }

export const initialMemoryState: MemoryState = {
  scope: 'project',
  workspace: null,
  query: '',
  items: [],
  listStatus: 'idle',
  listError: null,
  listRequest: 0,
  selected: null,
  detail: null,
  detailError: null,
  confirming: null,
  busy: false,
  actionError: null,
  notice: null
}

const unselected = {
  selected: null,
  detail: null,
  detailError: null,
  confirming: null,
  actionError: null,
  notice: null
} as const

export function memoryReducer(state: MemoryState, event: MemoryEvent): MemoryState {
  switch (event.type) {
    case 'workspace':
      if (event.workspace === state.workspace) return state
      return { ...state, ...unselected, workspace: event.workspace, items: [], listStatus: 'idle' }
    case 'scope':
      if (event.scope === state.scope) return state
      return { ...state, ...unselected, scope: event.scope, items: [], listStatus: 'idle' }
    case 'query':
      return { ...state, query: event.query }
    case 'list-requested':
      return { ...state, listRequest: event.request, listStatus: 'loading', listError: null }
    case 'list-loaded':
      if (event.request !== state.listRequest) return state
      return { ...state, items: event.items, listStatus: 'ready' }
    case 'list-failed':
      if (event.request !== state.listRequest) return state
      return { ...state, listStatus: 'error', listError: event.error }
    case 'select':
      return { ...state, ...unselected, selected: event.name }
    case 'detail-loaded':
      if (event.detail.entry.name.toLowerCase() !== state.selected?.toLowerCase()) return state
      return { ...state, detail: event.detail, detailError: null, items: withEntry(state, event) }
    case 'detail-failed':
      if (event.name !== state.selected) return state
      return { ...state, detail: null, detailError: event.error }
    case 'confirm':
      return { ...state, confirming: event.action, actionError: null, notice: null }
    case 'action-started':
      return { ...state, busy: true, actionError: null, notice: null }
    case 'action-done':
      return {
        ...state,
        busy: false,
        confirming: null,
        detail: event.detail,
        items: withEntry(state, event),
        notice: doneNotice(event.action, event.detail)
      }
    case 'action-failed':
      return { ...state, busy: false, confirming: null, actionError: event.error }
  }
}

/** The list with the entry's row brought up to date (a forgotten one stays, dimmed). */
function withEntry(state: MemoryState, event: { detail: MemoryInspection }): MemoryListItem[] {
  const { entry } = event.detail
  return state.items.map((item) =>
    item.name === entry.name && item.scope === entry.scope ? { ...item, ...entry } : item
  )
}

function doneNotice(action: MemoryAction, detail: MemoryInspection): string {
  const name = `“${detail.entry.name}”`
  if (action === 'forget') return `Forgot ${name}. Undo restores it.`
  return detail.entry.state === 'live'
    ? `${name} holds its earlier content again.`
    : `${name} holds nothing now. Undo again to bring it back.`
}

const PREVIEW_CHARS = 80

function preview(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim()
  return `“${line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line}”`
}

/**
 * What Undo will do, as the confirmation asks it: it restores the state before the latest change,
 * which the second-newest revision holds (none: the memory was just created).
 */
export function undoQuestion(detail: MemoryInspection): string {
  const name = `“${detail.entry.name}”`
  const before = detail.totalRevisions > 1 ? detail.history[1] : undefined
  const then =
    before?.content == null
      ? 'It will hold nothing, as the model will not recall or find it (Undo again brings it back).'
      : `It will hold ${preview(before.content)} again.`
  switch (detail.entry.lastKind) {
    case 'forget':
      return `Restore ${name} as it was before it was forgotten? ${then}`
    case 'undo':
      return `Take back the last Undo of ${name}? ${then}`
    case 'remember':
      return before
        ? `Undo the latest change to ${name}? ${then}`
        : `Undo the creation of ${name}? ${then}`
  }
}

export function forgetQuestion(detail: MemoryInspection): string {
  return `Forget “${detail.entry.name}”? The model will no longer recall or find it. Its history is kept, and Undo restores it.`
}

/** Who made a change, as a person reads it. */
export function authorOf(sessionId: string | null): string {
  if (sessionId === null) return 'you'
  return sessionId === 'cli' ? 'the command line' : `session ${sessionId.slice(0, 8)}`
}

export function revisionLabel(revision: MemoryRevision): string {
  switch (revision.kind) {
    case 'remember':
      return 'Remembered'
    case 'forget':
      return 'Forgotten'
    case 'undo':
      return revision.content === null ? 'Undone (left nothing)' : 'Undone'
  }
}
