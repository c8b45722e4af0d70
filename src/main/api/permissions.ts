import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import type { RuleTarget } from '../gate/rule-book'
import { previewRule } from '../gate/rule-preview'
import { checkFolder } from '../workspace/check-folder'

/** Answers to approval requests, and the permission rules of every scope. */
export function permissionsApi({
  rules,
  approver,
  sessions
}: Pick<Services, 'rules' | 'approver' | 'sessions'>): SliceHandlers<'permissions'> {
  /** Which rules a call is about: the folder's, and the session's own when one is named. */
  const target = async (workspace: string, sessionId?: string): Promise<RuleTarget> => ({
    workspace: await checkFolder(workspace),
    sessionRules: sessionId ? sessions.get(sessionId).rules : undefined
  })
  return {
    'approval.respond': async ({ approvalId, decision, reason }) => ({
      ok: approver?.respond(approvalId, { decision, reason }) ?? false
    }),
    'rules.list': async ({ workspace, sessionId }) =>
      rules.view(await target(workspace, sessionId)),
    'rules.add': async ({ workspace, sessionId, scope, rule }) => {
      const view = await rules.add(scope, rule, await target(workspace, sessionId))
      // "Always allow" on one waiting call answers the session's others the new rule covers.
      if (sessionId) await approver?.rulesChanged(sessionId)
      return view
    },
    'rules.remove': async ({ workspace, sessionId, scope, index }) =>
      rules.remove(scope, index, await target(workspace, sessionId)),
    'rules.trustProject': async ({ workspace, sessionId }) =>
      rules.trustProject(await target(workspace, sessionId)),
    'rules.preview': async ({ sessionId, rule }) =>
      previewRule(rule, sessionId ? sessions.get(sessionId).transcript() : [])
  }
}
