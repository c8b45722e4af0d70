import type { RulesView } from '../../../../shared/approvals'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import {
  initialPermissionsState,
  permissionsReducer,
  type RulesTarget
} from './permissions-reducer'
import type { RuleOp } from './rule-ops'

export const usePermissions = createReducerStore(permissionsReducer, initialPermissionsState)

const dispatch = usePermissions.getState().dispatch
const current = (): typeof initialPermissionsState => usePermissions.getState().state

function targetInput(target: RulesTarget): { workspace: string; sessionId?: string } {
  return target.sessionId
    ? { workspace: target.workspace, sessionId: target.sessionId }
    : { workspace: target.workspace }
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
  } catch (error) {
    dispatch({ type: 'action-failed', error: errorMessage(error) })
  }
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

/** Whether rule changes wait for Save (the Save bar counts them with the settings draft's). */
export function useRulesPending(): boolean {
  return usePermissions((s) => s.state.pending.length > 0)
}

/** Saves the rule changes waiting for Save, then reads the rules again from where they live. */
export async function saveAndReloadRules(): Promise<boolean> {
  const saved = await saveRuleChanges()
  const target = usePermissions.getState().state.target
  if (target) void loadRules(target)
  return saved
}
