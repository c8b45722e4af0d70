import { describe, expect, it } from 'vitest'
import { toolSummary } from './tool-input'

describe('toolSummary', () => {
  it('names the path of file tools', () => {
    expect(toolSummary('Read', { path: 'src/a.ts' })).toBe('src/a.ts')
    expect(toolSummary('Read', { path: 'a', offset: 10, limit: 50 })).toBe('a · lines 10–59')
    expect(toolSummary('Write', { path: 'n.md', content: 'x\ny' })).toBe('n.md · 2 lines')
    expect(toolSummary('Write', { path: 'n.md', content: 'x\ny\n' })).toBe('n.md · 2 lines')
    expect(toolSummary('Write', { path: 'n.md', content: '\n' })).toBe('n.md · 1 line')
    expect(toolSummary('Edit', { path: 'n.md', old: 'a', new: 'b' })).toBe('n.md')
    expect(toolSummary('ListDir', {})).toBe('.')
  })

  it('falls back to a telling field, then to compact JSON', () => {
    expect(toolSummary('Shell', { command: 'ls -la\necho hi' })).toBe('ls -la')
    expect(toolSummary('Other', { a: 1 })).toBe('{"a":1}')
    expect(toolSummary('Other', {})).toBe('')
    expect(toolSummary('Other', { a: 'x'.repeat(200) })).toHaveLength(118)
  })
})
