import { describe, expect, it } from 'vitest'
import { toolSummary } from './tool-input'

describe('toolSummary', () => {
  it('names the path of file tools', () => {
    expect(toolSummary('Read', { path: 'src/a.ts' })).toBe('src/a.ts')
    expect(toolSummary('Skill', {})).toBe('list the skills')
    expect(toolSummary('Skill', { name: 'pdf' })).toBe('pdf')
    expect(toolSummary('AskUser', { question: 'Which one?', options: ['a', 'b'] })).toBe(
      'Which one?'
    )
    expect(toolSummary('Read', { path: 'a', offset: 10, limit: 50 })).toBe('a · lines 10–59')
    expect(toolSummary('Write', { path: 'n.md', content: 'x\ny' })).toBe('n.md · 2 lines')
    expect(toolSummary('Write', { path: 'n.md', content: 'x\ny\n' })).toBe('n.md · 2 lines')
    expect(toolSummary('Write', { path: 'n.md', content: '\n' })).toBe('n.md · 1 line')
    expect(toolSummary('Edit', { path: 'n.md', old: 'a', new: 'b' })).toBe('n.md')
    expect(toolSummary('ListDir', {})).toBe('.')
  })

  it('sums up a plan by its progress and the step in progress', () => {
    const items = [
      { text: 'Read', status: 'done' },
      { text: 'Write the tests', status: 'in_progress' },
      { text: 'Ship', status: 'pending' }
    ]
    expect(toolSummary('Todo', { items })).toBe('3 steps · 1 done · now: Write the tests')
    expect(toolSummary('Todo', { items: items.slice(0, 1) })).toBe('1 step · 1 done')
    expect(toolSummary('Todo', { items: [] })).toBe('cleared the plan')
  })

  it('falls back to a telling field, then to compact JSON', () => {
    expect(toolSummary('Shell', { command: 'ls -la\necho hi' })).toBe('ls -la')
    expect(toolSummary('Other', { a: 1 })).toBe('{"a":1}')
    expect(toolSummary('Other', {})).toBe('')
    expect(toolSummary('Other', { a: 'x'.repeat(200) })).toHaveLength(118)
  })
})
