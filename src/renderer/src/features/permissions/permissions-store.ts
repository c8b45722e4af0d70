import type { ApprovalRequest, RuleScope, RulesView } from '../../../../shared/approvals'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { respondToApproval } from '../approvals/approvals-store'
import { useSessions } from '../sessions/sessions-store'
import { useSettings } from '../settings/settings-store'
import {
  initialPermissionsState,
  permissionsReducer,
  type RulesTarget
} from './permissions-reducer'
import { ruleFromDraft, type RuleDraft } from './rule-draft'

export const usePermissions = createReducerStore(permissionsReducer, initialPermissionsState)

const dispatch = usePermissions.getState().dispatch
const current = (): typeof initialPermissionsState => usePermissions.getState().state

function targetInput(target: RulesTarget): { workspace: string; sessionId?: string } {
  return target.sessionId
    ? { workspace: target.workspace, sessionId: target.sessionId }
    : { workspace: target.workspace }
}

/**
 * The settings screen keeps a copy of the user's settings file that its Save writes back whole;
 * a user rule saved here must be in that copy, or the next Save would drop it.
 */
function syncSettingsCopy(view: RulesView): void {
  const settings = useSettings.getState()
  if (settings.state.status !== 'ready') return
  const base = settings.state.base.permissions
  const permissions = base && typeof base === 'object' ? base : {}
  settings.dispatch({
    type: 'base-synced',
    key: 'permissions',
    value: { ...permissions, rules: view.user.rules }
  })
}

/** Reads the rules of every scope for a folder (and its selected session). */
export async function loadRules(target: RulesTarget): Promise<void> {
  dispatch({ type: 'load-started', target })
  try {
    const view = await call('rules.list', targetInput(target))
    dispatch({ type: 'loaded', target, view })
  } catch (error) {
    dispatch({ type: 'load-failed', target, error: errorMessage(error) })
  }
}

async function change(
  run: (target: RulesTarget) => Promise<RulesView>,
  closeForm = false
): Promise<void> {
  const target = current().target
  if (!target || current().busy) return
  dispatch({ type: 'action-started' })
  try {
    const view = await run(target)
    dispatch({ type: 'action-done', view, closeForm })
    syncSettingsCopy(view)
  } catch (error) {
    dispatch({ type: 'action-failed', error: errorMessage(error) })
  }
}

export function addRule(draft: RuleDraft): Promise<void> {
  return change(
    (target) =>
      call('rules.add', { ...targetInput(target), scope: draft.scope, rule: ruleFromDraft(draft) }),
    true
  )
}

export function removeRule(scope: RuleScope, index: number): Promise<void> {
  return change((target) => call('rules.remove', { ...targetInput(target), scope, index }))
}

/** The person has read the project's rules: its `allow` rules apply from now on. */
export function trustProjectRules(): Promise<void> {
  return change((target) => call('rules.trustProject', targetInput(target)))
}

/** The project folder a session works in. */
export function workspaceOf(sessionId: string): string | null {
  const sessions = useSessions.getState().state
  return sessions.sessions.find((s) => s.id === sessionId)?.workspace ?? sessions.workspace
}

/**
 * "Always allow": saves the rule, then allows the call waiting for an answer. Resolves with what
 * went wrong, or null; the call is only allowed once the rule is saved.
 */
export async function saveRuleAndAllow(
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
    syncSettingsCopy(view)
    const shown = current().target
    if (shown?.workspace === workspace && shown.sessionId === request.sessionId) {
      dispatch({ type: 'loaded', target: shown, view })
    }
  } catch (error) {
    return `The rule was not saved: ${errorMessage(error)}`
  }
  await respondToApproval(request.approvalId, 'allow', '')
  return null
}
