import type { RulePreview } from '../../../../shared/approvals'

/**
 * The live preview of a rule being edited. Previews are asked for as the person types, so an
 * answer may arrive after a newer question: only the answer to the latest one is shown.
 */
export interface PreviewState {
  /** The number of the latest question asked. */
  asked: number
  /** The number of the question `preview` (or `error`) answers. */
  answered: number
  preview: RulePreview | null
  error: string | null
}

export type PreviewAction =
  | { type: 'asked'; seq: number }
  | { type: 'answered'; seq: number; preview: RulePreview }
  | { type: 'failed'; seq: number; error: string }

export const initialPreviewState: PreviewState = {
  asked: 0,
  answered: 0,
  preview: null,
  error: null
}

export function previewReducer(state: PreviewState, action: PreviewAction): PreviewState {
  switch (action.type) {
    case 'asked':
      return action.seq > state.asked ? { ...state, asked: action.seq } : state
    case 'answered':
      if (action.seq < state.answered || action.seq > state.asked) return state
      return { ...state, answered: action.seq, preview: action.preview, error: null }
    case 'failed':
      if (action.seq < state.answered || action.seq > state.asked) return state
      return { ...state, answered: action.seq, preview: null, error: action.error }
  }
}

/** Whether the preview on screen is about the rule as it is now (no newer question pending). */
export function previewCurrent(state: PreviewState): boolean {
  return state.asked > 0 && state.answered === state.asked
}

/** Why the rule cannot be saved yet, or null when it can. */
export function saveBlocker(state: PreviewState): string | null {
  if (!previewCurrent(state)) return 'Checking the rule…'
  if (state.error) return state.error
  if (state.preview?.problem) return state.preview.problem
  return null
}
