import { describe, expect, it } from 'vitest'
import type { ChangeKind } from '../../../../shared/approvals'
import { capabilityBadges, effectBadge, offersAlwaysAllow, reasonParts } from './describe-approval'

describe('offersAlwaysAllow', () => {
  it('offers a rule unless the main process says no rule could allow the call', () => {
    expect(offersAlwaysAllow({})).toBe(true)
    expect(offersAlwaysAllow({ ruleCanAllow: false })).toBe(false)
  })
})

describe('reasonParts', () => {
  it('shows what the main process quotes in backticks as code, and nothing else', () => {
    expect(reasonParts("`.git/config` is inside the repository's .git folder")).toEqual([
      { text: '.git/config', code: true },
      { text: " is inside the repository's .git folder", code: false }
    ])
    expect(reasonParts('`> g/config` leads into it (`.git/config`)')).toEqual([
      { text: '> g/config', code: true },
      { text: ' leads into it (', code: false },
      { text: '.git/config', code: true },
      { text: ')', code: false }
    ])
    expect(reasonParts('an odd ` backtick')).toEqual([{ text: 'an odd ` backtick', code: false }])
    expect(reasonParts('Shell changes things (mode "ask")')).toEqual([
      { text: 'Shell changes things (mode "ask")', code: false }
    ])
  })
})

describe('effectBadge', () => {
  const badge = (changes: ChangeKind, readOnly = false): string =>
    effectBadge(changes, readOnly).label
  it('says what a call changes, as its tool declares: files, memory, commands, or something', () => {
    expect(badge('files')).toBe('Changes files')
    expect(badge('memory')).toBe('Changes memory')
    expect(badge('commands')).toBe('Runs commands')
    expect(badge('other')).toBe('Can change things')
    expect(badge('memory', true)).toBe('Read-only')
  })

  it('is the first capability badge, and says only "can change" when not told what', () => {
    const caps = {
      privateData: true,
      untrustedInput: false,
      egress: 'none',
      destructive: false
    } as const
    expect(capabilityBadges(false, caps, 'memory').map((b) => b.label)).toEqual([
      'Changes memory',
      'Private data',
      'Egress: none'
    ])
    expect(capabilityBadges(false, caps)[0]?.label).toBe('Can change things')
  })
})
