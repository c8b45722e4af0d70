import { permissionRuleViewSchema, type RulesView } from '../../../../shared/approvals'
import type { RuleView } from './rule-draft'

/** A scope whose rules are not in the user's settings file: Save applies them one by one. */
export type OutsideScope = 'project' | 'session'

/** A rule change of a project or a session, waiting for Save; indexes are of the view as drafted. */
export type RuleOp =
  | { op: 'add'; scope: OutsideScope; rule: RuleView }
  | { op: 'remove'; scope: OutsideScope; index: number }

function rulesOf(view: RulesView, scope: OutsideScope): RuleView[] {
  return scope === 'session' ? view.session : view.project.rules
}

function withRules(view: RulesView, scope: OutsideScope, rules: RuleView[]): RulesView {
  return scope === 'session'
    ? { ...view, session: rules }
    : { ...view, project: { ...view.project, rules } }
}

/** One change applied to a view, as the main process would apply it. */
export function applyRuleOp(view: RulesView, op: RuleOp): RulesView {
  const rules = rulesOf(view, op.scope)
  if (op.op === 'add') return withRules(view, op.scope, [...rules, op.rule])
  return withRules(
    view,
    op.scope,
    rules.filter((_, i) => i !== op.index)
  )
}

/**
 * The rules as they will be after Save: the project's and session's with the waiting changes
 * applied, and the user's as the settings draft holds them (when it can be read as rules).
 */
export function draftRulesView(
  view: RulesView,
  pending: readonly RuleOp[],
  userRules: unknown
): RulesView {
  const applied = pending.reduce(applyRuleOp, view)
  const user = userRulesOf(userRules)
  return user ? { ...applied, user: { ...applied.user, rules: user } } : applied
}

/** The user's rules of a settings draft, or null when any of them is not a rule this screen reads. */
export function userRulesOf(raw: unknown): RuleView[] | null {
  if (!Array.isArray(raw)) return raw === undefined ? [] : null
  const rules: RuleView[] = []
  for (const item of raw) {
    const parsed = permissionRuleViewSchema.safeParse(item)
    if (!parsed.success) return null
    rules.push(parsed.data)
  }
  return rules
}
