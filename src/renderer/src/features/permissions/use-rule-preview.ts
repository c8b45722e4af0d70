import { useEffect, useReducer, useRef } from 'react'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { initialPreviewState, previewReducer, type PreviewState } from './preview-reducer'
import { ruleFromDraft, type RuleDraft } from './rule-draft'

// Long enough that typing a command does not ask at every key, short enough to feel live.
const DEBOUNCE_MS = 150

/**
 * Asks `rules.preview` about the draft whenever it changes (null: nothing to preview), and keeps
 * only the answer about the latest version.
 */
export function useRulePreview(
  workspace: string | null,
  sessionId: string | null,
  draft: RuleDraft | null
): PreviewState {
  const [state, dispatch] = useReducer(previewReducer, initialPreviewState)
  const seq = useRef(0)
  const tool = draft?.tool
  const command = draft?.command
  const decision = draft?.decision

  useEffect(() => {
    if (!workspace || tool === undefined || command === undefined || !decision) return
    const asked = ++seq.current
    dispatch({ type: 'asked', seq: asked })
    const rule = ruleFromDraft({ scope: 'session', tool, command, decision })
    const timer = setTimeout(() => {
      call('rules.preview', { workspace, ...(sessionId ? { sessionId } : {}), rule })
        .then((preview) => dispatch({ type: 'answered', seq: asked, preview }))
        .catch((error: unknown) =>
          dispatch({ type: 'failed', seq: asked, error: errorMessage(error) })
        )
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [workspace, sessionId, tool, command, decision])

  return state
}
