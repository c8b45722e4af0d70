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
import type { RuleOp } from './rule-ops'

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
 * a user rule written here must be in that copy, or the next Save would drop it. Rule edits of
 * the draft not saved yet are kept (see `user-rules-synced`).
 */
function syncSettingsCopy(view: RulesView): void {
  const settings = useSettings.getState()
  if (settings.state.status !== 'ready') return
  settings.dispatch({ type: 'user-rules-synced', rules: view.user.rules })
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

/** The user's rules as the settings draft holds them (Save writes them with the rest). */
function userRulesDraft(): unknown[] {
  const permissions = useSettings.getState().state.base.permissions
  const rules =
    permissions && typeof permissions === 'object'
      ? (permissions as { rules?: unknown }).rules
      : undefined
  return Array.isArray(rules) ? rules : []
}

function setUserRules(rules: unknown[]): void {
  const settings = useSettings.getState()
  const base = settings.state.base.permissions
  const permissions = base && typeof base === 'object' ? base : {}
  settings.dispatch({ type: 'base-set', key: 'permissions', value: { ...permissions, rules } })
}

/**
 * Adds the form's rule to the draft and closes the form: nothing is written before Save. A user
 * rule goes into the settings draft; a project or session one waits in the list of changes.
 */
export function addRule(draft: RuleDraft): void {
  const rule = ruleFromDraft(draft)
  if (draft.scope === 'user') setUserRules([...userRulesDraft(), rule])
  else dispatch({ type: 'pending-add', op: { op: 'add', scope: draft.scope, rule } })
  dispatch({ type: 'form-close' })
}

/** Removes a rule from the draft; `index` is its place in the list as shown. */
export function removeRule(scope: RuleScope, index: number): void {
  if (scope === 'user') setUserRules(userRulesDraft().filter((_, i) => i !== index))
  else dispatch({ type: 'pending-add', op: { op: 'remove', scope, index } })
}

function sendOp(target: RulesTarget, op: RuleOp): Promise<RulesView> {
  const input = { ...targetInput(target), scope: op.scope }
  return op.op === 'add'
    ? call('rules.add', { ...input, rule: op.rule })
    : call('rules.remove', { ...input, index: op.index })
}

/**
 * Applies the waiting project and session rule changes in order, after the settings file was
 * saved. Stops at the first refusal with the rest still waiting; resolves true when all applied.
 */
export async function saveRuleChanges(): Promise<boolean> {
  const target = current().target
  if (!target || current().pending.length === 0) return true
  dispatch({ type: 'action-started' })
  try {
    while (current().pending.length > 0) {
      const [op] = current().pending
      if (!op) break
      const view = await sendOp(target, op)
      dispatch({ type: 'pending-applied' })
      dispatch({ type: 'action-done', view, closeForm: false })
      syncSettingsCopy(view)
    }
    return true
  } catch (error) {
    dispatch({
      type: 'action-failed',
      error: `A rule change was not saved: ${errorMessage(error)}. It is still waiting for Save.`
    })
    return false
  }
}

/** Forgets the waiting project and session rule changes (Discard). */
export function discardRuleChanges(): void {
  dispatch({ type: 'pending-clear' })
  dispatch({ type: 'form-close' })
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
