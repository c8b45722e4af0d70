import type { RestorePlan } from '../../../../shared/checkpoints'

/** What the person asked to put back. */
export type RestoreRequest =
  /** Rewind from a user message: its files, its conversation, or both. */
  | { kind: 'rewind'; sessionId: string; itemKey: string; text: string }
  /** A card's Revert this change: its files, back to before the call. */
  | { kind: 'revert'; sessionId: string; checkpoint: string; files: string[]; tool: string }
  /** Undo restore: the folder as it was just before a restore. */
  | { kind: 'undo'; sessionId: string; checkpoint: string; files: string[]; label: string }

export type RewindScope = 'both' | 'files' | 'conversation'

export interface RestoreState {
  request: RestoreRequest | null
  plan: RestorePlan | null
  /** Why the plan or the restore failed, for the dialog's error line. */
  error: string | null
  scope: RewindScope
  /** The person confirmed replacing the files changed outside the agent. */
  replaceChanged: boolean
  busy: boolean
}

export type RestoreAction =
  | { type: 'open'; request: RestoreRequest }
  | { type: 'planned'; plan: RestorePlan }
  | { type: 'failed'; error: string }
  | { type: 'scope'; scope: RewindScope }
  | { type: 'replace-changed'; replace: boolean }
  | { type: 'busy' }
  | { type: 'close' }

export const initialRestoreState: RestoreState = {
  request: null,
  plan: null,
  error: null,
  scope: 'both',
  replaceChanged: false,
  busy: false
}

export function restoreReducer(state: RestoreState, action: RestoreAction): RestoreState {
  switch (action.type) {
    case 'open':
      return { ...initialRestoreState, request: action.request }
    case 'planned':
      if (!state.request) return state
      // Nothing to put back: a rewind can still take the conversation back.
      return {
        ...state,
        plan: action.plan,
        scope:
          state.request.kind === 'rewind' && action.plan.changes.length === 0
            ? 'conversation'
            : state.scope
      }
    case 'failed':
      return { ...state, error: action.error, busy: false }
    case 'scope':
      return { ...state, scope: action.scope }
    case 'replace-changed':
      return { ...state, replaceChanged: action.replace }
    case 'busy':
      return { ...state, busy: true, error: null }
    case 'close':
      return initialRestoreState
  }
}

/** Whether the files are restored, given the request and the scope chosen. */
export function restoresFiles(state: RestoreState): boolean {
  if (!state.request || !state.plan) return false
  if (state.request.kind === 'rewind' && state.scope === 'conversation') return false
  return state.plan.changes.length > 0
}

/** Whether the conversation is taken back (a fork before the message). */
export function rewindsConversation(state: RestoreState): boolean {
  return state.request?.kind === 'rewind' && state.scope !== 'files'
}

/** Why the Restore button cannot be pressed yet, or null. */
export function blockedBecause(state: RestoreState): string | null {
  if (!state.request) return 'nothing to restore'
  if (state.busy) return 'restoring…'
  if (!state.plan) return state.error ? 'the plan could not be made' : 'looking at the files…'
  if (!restoresFiles(state) && !rewindsConversation(state)) return 'nothing has changed since'
  if (restoresFiles(state) && state.plan.conflicts.length > 0 && !state.replaceChanged) {
    return 'confirm replacing the files changed outside the agent'
  }
  return null
}
