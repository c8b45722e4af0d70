import { describe, expect, it } from 'vitest'
import {
  approvalModeOf,
  mcpEntriesOf,
  userRulesOf,
  withMode,
  withRuleAdded,
  withRuleRemoved,
  withServerEnabled,
  withServerPut,
  withToolEnabled
} from './draft-lists'
import { draftFromFile } from './draft-values'

const everything = {
  name: 'everything',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  force: { destructive: true }
}

describe('permission rules in the draft', () => {
  it('adds and removes the user’s rules, keeping the mode', () => {
    let draft = draftFromFile({ permissions: { mode: 'read-only' } })
    draft = withRuleAdded(draft, { tool: 'Shell', command: 'npm test', decision: 'allow' })
    draft = withRuleAdded(draft, { tool: 'Write', decision: 'forbid' })
    draft = withRuleRemoved(draft, 0)
    expect(userRulesOf(draft)).toEqual([{ tool: 'Write', decision: 'forbid' }])
    expect(approvalModeOf(draft)).toBe('read-only')
  })

  it('lists no rule while the permissions do not read, and an edit keeps what does not', () => {
    const bad = { tool: 'Read', decision: 'sometimes' }
    let draft = draftFromFile({ permissions: { mode: 'allow', rules: [bad] } })
    expect(userRulesOf(draft)).toBeNull()
    expect(approvalModeOf(draft)).toBe('allow')
    draft = withMode(draft, 'ask')
    expect(draft.unread.permissions).toEqual({ mode: 'ask', rules: [bad] })
    draft = withRuleRemoved(draft, 0)
    expect(userRulesOf(draft)).toEqual([])
    expect(draft.values.permissions).toEqual({ mode: 'ask', rules: [] })
  })
})

describe('MCP servers in the draft', () => {
  it('switches one tool of one server off and on, leaving the file as it was once all are on', () => {
    const draft = draftFromFile({ mcp: [everything, { name: 'other', command: 'node' }] })
    const off = withToolEnabled(draft, 0, 'echo', false)
    expect(mcpEntriesOf(off)[0]).toMatchObject({ disabled_tools: ['echo'] })
    expect(mcpEntriesOf(off)[1]).toEqual({ name: 'other', command: 'node' })
    const twice = withToolEnabled(withToolEnabled(off, 0, 'add', false), 0, 'echo', false)
    expect(twice.values.mcp?.[0]?.disabled_tools).toEqual(['add', 'echo'])
    const back = withToolEnabled(withToolEnabled(twice, 0, 'echo', true), 0, 'add', true)
    expect(mcpEntriesOf(back)[0]).toEqual(everything)
  })

  it('adds, replaces and switches servers off and on', () => {
    const added = withServerPut(draftFromFile({}), null, everything)
    expect(added.values.mcp).toEqual([everything])
    const other = { name: 'other', command: 'y' }
    expect(withServerPut(added, 0, other).values.mcp).toEqual([other])
    const off = withServerEnabled(added, 0, false)
    expect(off.values.mcp?.[0]?.enabled).toBe(false)
    expect(withServerEnabled(off, 0, true).values.mcp?.[0]).not.toHaveProperty('enabled')
  })

  it('keeps a server it cannot read in its place, and leaves its switches alone', () => {
    const broken = { name: 'broken', command: 'x', env_passthrough: ['LD_PRELOAD'] }
    const draft = draftFromFile({ mcp: [broken] })
    expect(draft.unread.mcp).toEqual([broken])
    expect(withServerEnabled(draft, 0, false)).toBe(draft)
    const fixed = withServerPut(draft, 0, { name: 'broken', command: 'x' })
    expect(fixed.values.mcp).toEqual([{ name: 'broken', command: 'x' }])
    expect(fixed.unread).toEqual({})
  })
})
