import type { ApprovalRequest, RuleScope } from '../../../../shared/approvals'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { sessionWorkspace } from '../sessions'
import { editDraft, reloadSavedSettings } from '../settings'
import { usePermissions } from './permissions-store'
import { ruleFromDraft, type RuleDraft } from './rule-draft'

const permissions = (): ReturnType<typeof usePermissions.getState> => usePermissions.getState()

/**
 * Adds the form's rule and closes the form: nothing is written before Save. A user rule goes
 * into the settings draft, where the user's rules are kept; a project or session one waits in
 * the list of changes Save applies after the file.
 */
export function addRule(draft: RuleDraft): void {
  const rule = ruleFromDraft(draft)
  if (draft.scope === 'user') editDraft({ type: 'rule-add', rule })
  else permissions().dispatch({ type: 'pending-add', op: { op: 'add', scope: draft.scope, rule } })
  permissions().dispatch({ type: 'form-close' })
}

/** Removes a rule from the draft; `index` is its place in the list as shown. */
export function removeRule(scope: RuleScope, index: number): void {
  if (scope === 'user') editDraft({ type: 'rule-remove', index })
  else permissions().dispatch({ type: 'pending-add', op: { op: 'remove', scope, index } })
}

/** The project folder a session works in. */
export function workspaceOf(sessionId: string): string | null {
  return sessionWorkspace(sessionId)
}

/**
 * "Always allow"'s first half: saves the rule for the call waiting for an answer, which approvals
 * then allows. Resolves with what went wrong, or null once the rule is saved.
 */
export async function saveRuleFor(
  request: ApprovalRequest,
  draft: RuleDraft
): Promise<string | null> {
  const workspace = workspaceOf(request.sessionId)
  if (!workspace) return 'The project folder of this session is not known; allow it once instead.'
  try {
    const view = await call('rules.add', {
      workspace,
      sessionId: request.sessionId,
      scope: draft.scope,
      rule: ruleFromDraft(draft)
    })
    // Written to the user's file behind the draft's back: the next Save must keep it.
    if (draft.scope === 'user') await reloadSavedSettings()
    const shown = permissions().state.target
    if (shown?.workspace === workspace && shown.sessionId === request.sessionId) {
      permissions().dispatch({ type: 'loaded', target: shown, view })
    }
  } catch (error) {
    return `The rule was not saved: ${errorMessage(error)}`
  }
  return null
}
