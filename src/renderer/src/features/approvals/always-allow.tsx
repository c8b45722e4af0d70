import { useEffect, useRef, useState, type JSX } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import {
  saveRuleFor,
  workspaceOf,
  saveBlocker,
  type PreviewState,
  draftForRequest,
  type RuleDraft,
  RuleEditor,
  useRulePreview
} from '../permissions'
import { respondToApproval } from './approvals-store'

/**
 * "Always allow": saves the rule, then allows the call waiting for an answer. Resolves with what
 * went wrong, or null; the call is only allowed once the rule is saved.
 */
async function saveRuleAndAllow(
  request: ApprovalRequest,
  draft: RuleDraft
): Promise<string | null> {
  const failed = await saveRuleFor(request, draft)
  if (failed) return failed
  await respondToApproval(request.approvalId, 'allow', '')
  return null
}

export interface AlwaysAllow {
  /** The rule being written, or null while the modal offers the plain choices. */
  draft: RuleDraft | null
  preview: PreviewState
  /** Why Save cannot be pressed yet, or null. */
  blocker: string | null
  saving: boolean
  error: string | null
  open(): void
  close(): void
  change(draft: RuleDraft): void
  save(): void
}

/** "Always allow…" for one approval request: the rule it proposes, its preview, and saving it. */
export function useAlwaysAllow(request: ApprovalRequest): AlwaysAllow {
  const [draft, setDraft] = useState<RuleDraft | null>(null)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const preview = useRulePreview(workspaceOf(request.sessionId), request.sessionId, draft)
  const blocker = draft ? saveBlocker(preview) : null
  return {
    draft,
    preview,
    blocker,
    saving,
    error,
    open: () => {
      setError(null)
      setDraft(draftForRequest(request))
    },
    close: () => {
      setError(null)
      setDraft(null)
    },
    change: setDraft,
    save: () => {
      if (!draft || blocker !== null || saving) return
      setSaving(true)
      setError(null)
      void saveRuleAndAllow(request, draft).then((failed) => {
        // On success the modal closes when the approval is resolved; keep "Saving…" until then.
        if (failed) {
          setSaving(false)
          setError(failed)
        }
      })
    }
  }
}

/** The rule editor inside the approval modal. */
export function AlwaysAllowPanel({ state }: { state: AlwaysAllow }): JSX.Element | null {
  const panel = useRef<HTMLDivElement>(null)
  const open = state.draft !== null

  // The editor opens below the arguments: bring it into view and put the cursor in the pattern.
  useEffect(() => {
    if (!open) return
    panel.current?.scrollIntoView({ block: 'nearest' })
    panel.current?.querySelector<HTMLInputElement>('[data-testid="rule-command"]')?.focus()
  }, [open])

  if (!state.draft) return null
  return (
    <div ref={panel} className="approval__section approval__rule" data-testid="always-allow">
      <div className="approval__label">Always allow</div>
      <RuleEditor
        draft={state.draft}
        onChange={state.change}
        preview={state.preview}
        withSession
        fixedTool
      />
      {state.error && (
        <p className="field-error" role="alert" data-testid="always-allow-error">
          {state.error}
        </p>
      )}
    </div>
  )
}
