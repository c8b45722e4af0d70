import { beforeEach, describe, expect, it } from 'vitest'
import type { RulesView } from '../../../../shared/approvals'
import { userRulesOf } from '../settings/draft-lists'
import { buildSettings } from '../settings/settings-model'
import { useSettings } from '../settings/settings-store'
import { ruleGroups } from './permissions-reducer'
import { usePermissions } from './permissions-store'
import { addRule, removeRule } from './rule-edits'
import { withPending } from './rule-ops'

const file = { permissions: { mode: 'ask', rules: [{ tool: 'Read', decision: 'allow' }] } }
const target = { workspace: '/p', sessionId: null }
const view: RulesView = {
  session: [],
  project: { path: '/p/.mecatl/settings.yaml', rules: [], trusted: true },
  // What the main process last read: the screen must not list these as the user's rules.
  user: { path: '/u/settings.yaml', rules: [{ tool: 'Stale', decision: 'forbid' }] }
}

// As loadSettings reads the file: load-started, then loaded.
const load = (settings: unknown): void => {
  useSettings.getState().dispatch({ type: 'load-started' })
  useSettings.getState().dispatch({ type: 'loaded', path: 'p', settings, issues: [] })
}

// The rules as the Permissions section lists them, scope by scope.
function listed(): Record<string, string[]> {
  const { view: outside, pending } = usePermissions.getState().state
  if (!outside) throw new Error('the rules were not loaded')
  const groups = ruleGroups(
    withPending(outside, pending),
    userRulesOf(useSettings.getState().state.draft),
    false
  )
  return Object.fromEntries(groups.map((g) => [g.scope, g.rules.map((r) => r.rule.tool)]))
}

const sentRules = (): unknown => {
  const { state } = useSettings.getState()
  return (buildSettings(state, state.providers).permissions as { rules?: unknown }).rules
}

beforeEach(() => {
  load(file)
  const permissions = usePermissions.getState()
  permissions.dispatch({ type: 'pending-clear' })
  permissions.dispatch({ type: 'load-started', target })
  permissions.dispatch({ type: 'loaded', target, view })
})

describe('the user’s rules live in the settings draft alone', () => {
  it('puts a rule added for everywhere in the draft that Save sends, and lists it', () => {
    addRule({ scope: 'user', tool: 'Glob', command: '', decision: 'allow' })
    expect(sentRules()).toEqual([
      { tool: 'Read', decision: 'allow' },
      { tool: 'Glob', decision: 'allow' }
    ])
    expect(listed()).toEqual({ project: [], user: ['Read', 'Glob'] })
    expect(useSettings.getState().state.dirty).toBe(true)
  })

  it('keeps a project rule out of the settings file: it waits for Save with the project', () => {
    addRule({ scope: 'project', tool: 'Shell', command: 'npm test', decision: 'allow' })
    expect(sentRules()).toEqual(file.permissions.rules)
    expect(listed()).toEqual({ project: ['Shell'], user: ['Read'] })
  })

  it('removes a user rule from the draft by its place in the list shown', () => {
    removeRule('user', 0)
    expect(sentRules()).toEqual([])
    expect(listed().user).toEqual([])
  })

  it('lists the rules the draft holds after Discard and after the file changed elsewhere', () => {
    removeRule('user', 0)
    load(file)
    expect(listed().user).toEqual(['Read'])
    useSettings.getState().dispatch({
      type: 'file-changed',
      settings: {
        permissions: {
          ...file.permissions,
          rules: [...file.permissions.rules, { tool: 'Grep', decision: 'allow' }]
        }
      },
      issues: []
    })
    expect(listed().user).toEqual(['Read', 'Grep'])
  })
})
