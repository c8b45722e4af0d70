import { describe, expect, it } from 'vitest'
import type { RulePreview, RulesView } from '../../../../shared/approvals'
import {
  initialPermissionsState,
  outsideRules,
  permissionsReducer,
  ruleGroups,
  type PermissionsState
} from './permissions-reducer'
import { initialPreviewState, previewReducer, saveBlocker } from './preview-reducer'

const view: RulesView = {
  session: [{ tool: 'Write', decision: 'allow' }],
  project: {
    path: '/p/.mecatl/settings.yaml',
    rules: [
      { tool: 'Shell', command: 'npm test', decision: 'allow' },
      { tool: 'Shell', command: 'rm', decision: 'forbid' }
    ],
    trusted: false
  },
  user: { path: '/home/settings.yaml', rules: [] }
}

const outside = outsideRules(view)
const target = { workspace: '/p', sessionId: 's1' }

describe('permissionsReducer', () => {
  it('loads the rules of a folder and ignores an answer for one no longer shown', () => {
    let state = permissionsReducer(initialPermissionsState, { type: 'load-started', target })
    expect(state.status).toBe('loading')
    const other = { workspace: '/q', sessionId: null }
    expect(permissionsReducer(state, { type: 'loaded', target: other, view })).toBe(state)
    state = permissionsReducer(state, { type: 'loaded', target, view })
    expect(state).toMatchObject({ status: 'ready', view: outside })
  })

  it('keeps no copy of the user’s rules: those are the settings draft’s', () => {
    const rule = { tool: 'Write', decision: 'allow' as const }
    const withUserRules = { ...view, user: { ...view.user, rules: [rule] } }
    const state = permissionsReducer(
      { ...initialPermissionsState, target },
      { type: 'loaded', target, view: withUserRules }
    )
    expect(state.view).toEqual({ ...outside, userPath: '/home/settings.yaml' })
    expect(JSON.stringify(state)).not.toContain('"user"')
  })

  it('keeps the rules on screen while the same folder is read again', () => {
    const ready: PermissionsState = {
      ...initialPermissionsState,
      target,
      status: 'ready',
      view: outside
    }
    expect(permissionsReducer(ready, { type: 'load-started', target })).toMatchObject({
      status: 'ready',
      view: outside
    })
    const elsewhere = permissionsReducer(ready, {
      type: 'load-started',
      target: { workspace: '/p', sessionId: 's2' }
    })
    expect(elsewhere).toMatchObject({ status: 'loading', view: null })
  })

  it('closes the add form only when the rule was saved', () => {
    const draft = { scope: 'user' as const, tool: 'Write', command: '', decision: 'allow' as const }
    let state = permissionsReducer(initialPermissionsState, { type: 'form-open', draft })
    state = permissionsReducer(state, { type: 'action-started' })
    expect(state.busy).toBe(true)
    const failed = permissionsReducer(state, { type: 'action-failed', error: 'no' })
    expect(failed).toMatchObject({ busy: false, actionError: 'no', draft })
    const saved = permissionsReducer(state, { type: 'action-done', view, closeForm: true })
    expect(saved).toMatchObject({ busy: false, draft: null, view: outside })
  })
})

describe('ruleGroups', () => {
  it('lists every scope in the order the gate checks them, with indexes for removal', () => {
    const groups = ruleGroups(outside, [], true)
    expect(groups.map((g) => g.scope)).toEqual(['session', 'project', 'user'])
    expect(groups[1]?.path).toBe('/p/.mecatl/settings.yaml')
    expect(groups[1]?.rules.map((r) => r.index)).toEqual([0, 1])
  })

  it('marks an untrusted project’s allow rules as not applying; its forbid rules still do', () => {
    const project = ruleGroups(outside, [], true)[1]
    expect(project?.rules.map((r) => r.dormant)).toEqual([true, false])
    const trusted = ruleGroups(
      { ...outside, project: { ...outside.project, trusted: true } },
      [],
      true
    )
    expect(trusted[1]?.rules.every((r) => !r.dormant)).toBe(true)
  })

  it('leaves out session rules when no session is selected', () => {
    expect(ruleGroups(outside, [], false).map((g) => g.scope)).toEqual(['project', 'user'])
  })

  it('lists the user’s rules the settings draft holds, and says so when it cannot read them', () => {
    const mine = [{ tool: 'Glob', decision: 'allow' as const }]
    const user = ruleGroups(outside, mine, false)[1]
    expect(user).toMatchObject({ path: '/home/settings.yaml', problem: null })
    expect(user?.rules.map((r) => r.rule)).toEqual(mine)
    const unread = ruleGroups(outside, null, false)[1]
    expect(unread?.rules).toEqual([])
    expect(unread?.problem).toContain('cannot be read')
  })
})

describe('previewReducer', () => {
  const preview = (problem: string | null): RulePreview => ({
    description: 'allow any command that starts with `npm test`',
    sessionMatches: [],
    problem
  })

  it('shows only the answer to the latest question', () => {
    let state = previewReducer(initialPreviewState, { type: 'asked', seq: 1 })
    state = previewReducer(state, { type: 'asked', seq: 2 })
    state = previewReducer(state, { type: 'answered', seq: 2, preview: preview(null) })
    const late = previewReducer(state, { type: 'answered', seq: 1, preview: preview('old') })
    expect(late).toBe(state)
    expect(saveBlocker(state)).toBeNull()
  })

  it('blocks saving while a newer question waits, on a problem, and on a failure', () => {
    let state = previewReducer(initialPreviewState, { type: 'asked', seq: 1 })
    expect(saveBlocker(state)).toBe('Checking the rule…')
    state = previewReducer(state, { type: 'answered', seq: 1, preview: preview('bad rule') })
    expect(saveBlocker(state)).toBe('bad rule')
    state = previewReducer(state, { type: 'asked', seq: 2 })
    state = previewReducer(state, { type: 'failed', seq: 2, error: 'offline' })
    expect(saveBlocker(state)).toBe('offline')
  })
})
