import type { RuleScope, RulesView } from '../../../../shared/approvals'
import type { RuleDraft, RuleView } from './rule-draft'
import type { RuleOp } from './rule-ops'

/**
 * The rules of a folder that are not in the user's settings file: the project's and this
 * session's. The user's own rules are the settings draft's, shown from there.
 */
export interface OutsideRules {
  session: RuleView[]
  project: RulesView['project']
  /** The user's settings file, named above their rules. */
  userPath: string
}

export function outsideRules(view: RulesView): OutsideRules {
  return { session: view.session, project: view.project, userPath: view.user.path }
}

/** Whose rules are shown: a project folder, and the selected session's own rules with it. */
export interface RulesTarget {
  workspace: string
  sessionId: string | null
}

export interface PermissionsState {
  target: RulesTarget | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  view: OutsideRules | null
  loadError: string | null
  /** An add, remove or trust is on its way; the buttons wait for it. */
  busy: boolean
  actionError: string | null
  /** The "Add a rule" form, when open. */
  draft: RuleDraft | null
  /** Project and session rule changes waiting for Save, in the order they were made. */
  pending: RuleOp[]
}

export type PermissionsAction =
  | { type: 'load-started'; target: RulesTarget }
  | { type: 'loaded'; target: RulesTarget; view: RulesView }
  | { type: 'load-failed'; target: RulesTarget; error: string }
  | { type: 'action-started' }
  | { type: 'action-done'; view: RulesView; closeForm: boolean }
  | { type: 'action-failed'; error: string }
  | { type: 'form-open'; draft: RuleDraft }
  | { type: 'form-change'; draft: RuleDraft }
  | { type: 'form-close' }
  | { type: 'pending-add'; op: RuleOp }
  /** The first waiting change was applied by the main process. */
  | { type: 'pending-applied' }
  | { type: 'pending-clear' }

export const initialPermissionsState: PermissionsState = {
  target: null,
  status: 'idle',
  view: null,
  loadError: null,
  busy: false,
  actionError: null,
  draft: null,
  pending: []
}

function sameTarget(a: RulesTarget | null, b: RulesTarget): boolean {
  return a?.workspace === b.workspace && a.sessionId === b.sessionId
}

export function permissionsReducer(
  state: PermissionsState,
  action: PermissionsAction
): PermissionsState {
  switch (action.type) {
    case 'load-started': {
      const same = sameTarget(state.target, action.target)
      // Another folder or session: its rules are not these, so do not show these meanwhile.
      return {
        ...state,
        // Changes drafted for another folder or session are not this one's to save.
        pending: same ? state.pending : [],
        target: action.target,
        status: same && state.view ? state.status : 'loading',
        view: same ? state.view : null,
        loadError: null,
        actionError: same ? state.actionError : null
      }
    }
    case 'loaded':
      if (!sameTarget(state.target, action.target)) return state
      return { ...state, status: 'ready', view: outsideRules(action.view), loadError: null }
    case 'load-failed':
      if (!sameTarget(state.target, action.target)) return state
      return { ...state, status: 'error', loadError: action.error }
    case 'action-started':
      return { ...state, busy: true, actionError: null }
    case 'action-done':
      return {
        ...state,
        busy: false,
        view: outsideRules(action.view),
        status: 'ready',
        draft: action.closeForm ? null : state.draft
      }
    case 'action-failed':
      return { ...state, busy: false, actionError: action.error }
    case 'form-open':
      return { ...state, draft: action.draft, actionError: null }
    case 'form-change':
      return state.draft ? { ...state, draft: action.draft } : state
    case 'form-close':
      return { ...state, draft: null, actionError: null }
    case 'pending-add':
      return { ...state, pending: [...state.pending, action.op] }
    case 'pending-applied':
      return { ...state, pending: state.pending.slice(1) }
    case 'pending-clear':
      return { ...state, pending: [], actionError: null }
  }
}

export interface ListedRule {
  scope: RuleScope
  /** Its index within its scope, as `rules.remove` takes it. */
  index: number
  rule: RuleView
  /** A project `allow` rule the person has not trusted yet: it does not apply. */
  dormant: boolean
}

export interface RuleGroup {
  scope: RuleScope
  title: string
  /** The settings file the rules live in; null for this session's rules. */
  path: string | null
  rules: ListedRule[]
  /** Why the rules cannot be listed, or null. */
  problem: string | null
}

/**
 * The rules of every scope, as the settings screen lists them, in the order they are checked.
 * `userRules` is the settings draft's list, null when it does not read.
 */
export function ruleGroups(
  view: OutsideRules,
  userRules: readonly RuleView[] | null,
  hasSession: boolean
): RuleGroup[] {
  const listed = (scope: RuleScope, rules: RuleView[], trusted = true): ListedRule[] =>
    rules.map((rule, index) => ({
      scope,
      index,
      rule,
      dormant: !trusted && rule.decision === 'allow'
    }))
  const groups: RuleGroup[] = []
  if (hasSession) {
    groups.push({
      scope: 'session',
      title: 'This session',
      path: null,
      rules: listed('session', view.session),
      problem: null
    })
  }
  groups.push(
    {
      scope: 'project',
      title: 'This project',
      path: view.project.path,
      rules: listed('project', view.project.rules, view.project.trusted),
      problem: null
    },
    {
      scope: 'user',
      title: 'Everywhere',
      path: view.userPath,
      rules: listed('user', [...(userRules ?? [])]),
      problem: userRules
        ? null
        : 'Your settings file’s permissions cannot be read as they are: fix the problems listed at the top of Settings.'
    }
  )
  return groups
}
