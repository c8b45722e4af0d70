import type { OutsideRules } from './permissions-reducer'
import type { RuleView } from './rule-draft'

/** A scope whose rules are not in the user's settings file: Save applies them one by one. */
export type OutsideScope = 'project' | 'session'

/** A rule change of a project or a session, waiting for Save; indexes are of the view as drafted. */
export type RuleOp =
  | { op: 'add'; scope: OutsideScope; rule: RuleView }
  | { op: 'remove'; scope: OutsideScope; index: number }

function rulesOf(view: OutsideRules, scope: OutsideScope): RuleView[] {
  return scope === 'session' ? view.session : view.project.rules
}

function withRules(view: OutsideRules, scope: OutsideScope, rules: RuleView[]): OutsideRules {
  return scope === 'session'
    ? { ...view, session: rules }
    : { ...view, project: { ...view.project, rules } }
}

/** One change applied to a view, as the main process would apply it. */
export function applyRuleOp(view: OutsideRules, op: RuleOp): OutsideRules {
  const rules = rulesOf(view, op.scope)
  if (op.op === 'add') return withRules(view, op.scope, [...rules, op.rule])
  return withRules(
    view,
    op.scope,
    rules.filter((_, i) => i !== op.index)
  )
}

/** The project's and session's rules as they will be after Save: the waiting changes applied. */
export function withPending(view: OutsideRules, pending: readonly RuleOp[]): OutsideRules {
  return pending.reduce(applyRuleOp, view)
}
