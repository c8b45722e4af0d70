import { describe, expect, it } from 'vitest'
import { offersAlwaysAllow, reasonParts } from './describe-approval'

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
