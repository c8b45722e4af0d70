import { describe, expect, it } from 'vitest'
import type { OutsideRules } from './permissions-reducer'
import { withPending, type RuleOp } from './rule-ops'

const view: OutsideRules = {
  session: [{ tool: 'Read', decision: 'allow' }],
  project: {
    path: '/p/.mecatl/settings.yaml',
    rules: [
      { tool: 'Shell', command: 'npm test', decision: 'allow' },
      { tool: 'Shell', command: 'rm', decision: 'forbid' }
    ],
    trusted: true
  },
  userPath: '/u/settings.yaml'
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
    const drafted = withPending(view, pending)
    expect(drafted.project.rules).toEqual([{ tool: 'Shell', command: 'ls', decision: 'allow' }])
    expect(drafted.session).toEqual([
      { tool: 'Read', decision: 'allow' },
      { tool: 'Edit', decision: 'prompt' }
    ])
  })
})
