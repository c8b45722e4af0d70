import { describe, expect, it } from 'vitest'
import { coversEveryShellCall, everyShellCallWarning, toolProblem } from './rule-checks'

const catalog = ['Read', 'Shell', 'Edit', 'mcp__everything__echo']

describe('toolProblem', () => {
  it('accepts only a tool of the catalog, spelt exactly', () => {
    expect(toolProblem('Shell', catalog)).toBeNull()
    expect(toolProblem('mcp__everything__echo', catalog)).toBeNull()
    for (const wrong of ['Shel', 'shell', ' Shell', 'Shell ', 'Ｓhell', 'Shell\u200b', '*']) {
      expect(toolProblem(wrong, catalog)).toMatch(/is not a tool in this project's catalog/)
    }
  })

  it('asks for a tool first, and waits for the catalog', () => {
    expect(toolProblem('', catalog)).toBe('Choose the tool the rule is for.')
    expect(toolProblem('Shell', null)).toBe('Reading the tool catalog…')
  })
})

describe('coversEveryShellCall', () => {
  const draft = { scope: 'project' as const, tool: 'Shell', decision: 'allow' as const }
  it('is true for a Shell rule with no command prefix, however blank', () => {
    for (const command of ['', ' ', '\t', '\n ']) {
      expect(coversEveryShellCall({ ...draft, command })).toBe(true)
    }
  })
  it('is false with a prefix and for other tools', () => {
    expect(coversEveryShellCall({ ...draft, command: 'git status' })).toBe(false)
    expect(coversEveryShellCall({ ...draft, command: '', tool: 'Read' })).toBe(false)
  })
  it('says what such a rule does, for each decision', () => {
    expect(everyShellCallWarning('allow')).toMatch(/runs every Shell command without asking/)
    expect(everyShellCallWarning('prompt')).toMatch(/asks about every Shell command/)
    expect(everyShellCallWarning('forbid')).toMatch(/refuses every Shell command/)
  })
})
