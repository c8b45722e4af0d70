import { describe, expect, it } from 'vitest'
import type { RulesView } from '../../../../shared/approvals'
import { draftRulesView, userRulesOf, type RuleOp } from './rule-ops'

const view: RulesView = {
  session: [{ tool: 'Read', decision: 'allow' }],
  project: {
    path: '/p/.mecatl/settings.yaml',
    rules: [
      { tool: 'Shell', command: 'npm test', decision: 'allow' },
      { tool: 'Shell', command: 'rm', decision: 'forbid' }
    ],
    trusted: true
  },
  user: { path: '/u/settings.yaml', rules: [{ tool: 'Write', decision: 'prompt' }] }
}

describe('rule changes waiting for Save', () => {
  it('shows adds and removes in the order they were made, by the index shown at the time', () => {
    const pending: RuleOp[] = [
      { op: 'remove', scope: 'project', index: 0 },
      { op: 'add', scope: 'project', rule: { tool: 'Shell', command: 'ls', decision: 'allow' } },
      // Index 0 of the list as it then was: the `rm` rule, not `npm test`.
      { op: 'remove', scope: 'project', index: 0 },
      { op: 'add', scope: 'session', rule: { tool: 'Edit', decision: 'prompt' } }
    ]
    const drafted = draftRulesView(view, pending, undefined)
    expect(drafted.project.rules).toEqual([{ tool: 'Shell', command: 'ls', decision: 'allow' }])
    expect(drafted.session).toEqual([
      { tool: 'Read', decision: 'allow' },
      { tool: 'Edit', decision: 'prompt' }
    ])
  })

  it("lists the user's rules from the settings draft, or the saved ones if the draft is unreadable", () => {
    const draft = [{ tool: 'Glob', decision: 'allow' }]
    expect(draftRulesView(view, [], draft).user.rules).toEqual(draft)
    expect(draftRulesView(view, [], null).user.rules).toEqual(view.user.rules)
    expect(userRulesOf([{ tool: 'Glob', decision: 'sometimes' }])).toBeNull()
    expect(userRulesOf(undefined)).toEqual([])
  })
})
