import type { Handlers } from '../../shared/contract/handlers'
import type { TranscriptItem } from '../../shared/domain'
import { checkFolder } from '../workspace/check-folder'
import type { InteractiveApprover } from './interactive-approver'
import type { RuleBook, RuleTarget } from './rule-book'
import { previewRule } from './rule-preview'
import type { PermissionRule } from './rules'

export interface GateHandlerDeps {
  rules: RuleBook
  approver: InteractiveApprover | null
  /** A session's own rules and transcript, by id (throws when there is none). */
  session: (sessionId: string) => { rules: PermissionRule[]; transcript(): TranscriptItem[] }
}

type GateCall =
  | 'approval.respond'
  | 'rules.list'
  | 'rules.add'
  | 'rules.remove'
  | 'rules.trustProject'
  | 'rules.preview'

/** Answers to approval requests, and the permission rules of every scope. */
export function gateHandlers(deps: GateHandlerDeps): Pick<Handlers, GateCall> {
  const { rules } = deps
  /** Which rules a call is about: the folder's, and the session's own when one is named. */
  const target = async (workspace: string, sessionId?: string): Promise<RuleTarget> => ({
    workspace: await checkFolder(workspace),
    sessionRules: sessionId ? deps.session(sessionId).rules : undefined
  })
  return {
    'approval.respond': async ({ approvalId, decision, reason }) => ({
      ok: deps.approver?.respond(approvalId, { decision, reason }) ?? false
    }),
    'rules.list': async ({ workspace, sessionId }) =>
      rules.view(await target(workspace, sessionId)),
    'rules.add': async ({ workspace, sessionId, scope, rule }) => {
      const view = await rules.add(scope, rule, await target(workspace, sessionId))
      // "Always allow" on one waiting call answers the session's others the new rule covers.
      if (sessionId) await deps.approver?.rulesChanged(sessionId)
      return view
    },
    'rules.remove': async ({ workspace, sessionId, scope, index }) =>
      rules.remove(scope, index, await target(workspace, sessionId)),
    'rules.trustProject': async ({ workspace, sessionId }) =>
      rules.trustProject(await target(workspace, sessionId)),
    'rules.preview': async ({ sessionId, rule }) =>
      previewRule(rule, sessionId ? deps.session(sessionId).transcript() : [])
  }
}
