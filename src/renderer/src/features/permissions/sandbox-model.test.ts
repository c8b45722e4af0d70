import { describe, expect, it } from 'vitest'
import { choice, linesOf, sandboxOf, sandboxWarning, withChoice, withLines } from './sandbox-model'

describe('the sandbox entry as Settings edits it', () => {
  it('leaves defaults out of the file and keeps what it does not edit', () => {
    const base = { sandbox: { kind: 'none', writable: ['~/.cache'] } }
    const sandbox = sandboxOf(base)
    expect(choice(sandbox, 'kind')).toBe('none')
    expect(choice(sandbox, 'network')).toBe('')
    expect(withChoice(sandbox, 'kind', '')).toEqual({ writable: ['~/.cache'] })
    expect(withChoice(sandbox, 'network', 'on')).toMatchObject({ kind: 'none', network: 'on' })
    expect(sandboxOf({ sandbox: 'broken' })).toEqual({})
  })

  it('reads and writes lists one item a line, blank lines dropped', () => {
    const sandbox = { allowed_hosts: ['registry.npmjs.org', 'pypi.org'] }
    expect(linesOf(sandbox, 'allowed_hosts')).toBe('registry.npmjs.org\npypi.org')
    expect(withLines(sandbox, 'allowed_hosts', ' a.example \n\n b.example ')).toEqual({
      allowed_hosts: ['a.example', 'b.example']
    })
    expect(withLines(sandbox, 'allowed_hosts', '  \n')).toEqual({})
  })
})

describe('the badge’s sandbox warning', () => {
  it('warns when Shell is not confined or refused, and says nothing when it is', () => {
    expect(sandboxWarning({ state: 'confined', text: 'confined (bubblewrap), network off' })).toBe(
      null
    )
    expect(sandboxWarning({ state: 'checking', text: '' })).toBe(null)
    expect(sandboxWarning(null)).toBe(null)
    expect(
      sandboxWarning({ state: 'unconfined', text: 'not confined (sandbox.kind is none)' })
    ).toBe('Shell not confined')
    expect(sandboxWarning({ state: 'refused', text: 'refused: …' })).toBe(
      'Shell refused: sandbox broken'
    )
  })
})
