import { describe, expect, it } from 'vitest'
import {
  approvalPreview,
  capabilityBadges,
  describeApproval,
  effectBadge,
  offersAlwaysAllow,
  reasonParts
} from './describe-approval'

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

describe('describeApproval, effects said truly', () => {
  it('says a memory note is a note, not a file', () => {
    expect(describeApproval({ tool: 'Remember', input: { name: 'build', content: 'x' } })).toBe(
      'Save the note "build" in the project memory, which later sessions in this folder read. No file changes.'
    )
    expect(describeApproval({ tool: 'RememberUser', input: { name: 'tone' } })).toBe(
      'Save the note "tone" in your user model, which sessions in every project read. No file changes.'
    )
    expect(describeApproval({ tool: 'ForgetMemory', input: { name: 'build' } })).toBe(
      'Forget the note "build" in the project memory: later sessions no longer see it (its history keeps it). No file changes.'
    )
    expect(describeApproval({ tool: 'UndoUserMemory', input: { name: 'tone' } })).toBe(
      'Put back the previous version of the note "tone" in your user model. No file changes.'
    )
  })

  it('names both paths of a move or copy, and the path of a removal, in their own case', () => {
    expect(
      describeApproval({ tool: 'Move', input: { source: 'A.md', destination: 'b/B.md' } })
    ).toBe('Move A.md to b/B.md.')
    expect(describeApproval({ tool: 'Copy', input: { source: 'A.md', destination: 'C.md' } })).toBe(
      'Copy A.md to C.md.'
    )
    expect(describeApproval({ tool: 'Remove', input: { path: 'Tests/Mul.test.js' } })).toBe(
      'Delete Tests/Mul.test.js.'
    )
  })
})

describe('effectBadge', () => {
  const badge = (tool: string, readOnly = false): string => effectBadge(tool, readOnly).label
  it('says what a call changes: files, memory, commands, or only something', () => {
    expect(badge('Write')).toBe('Changes files')
    expect(badge('Edit')).toBe('Changes files')
    expect(badge('SkillDraft')).toBe('Changes files')
    expect(badge('Remember')).toBe('Changes memory')
    expect(badge('ForgetUserMemory')).toBe('Changes memory')
    expect(badge('Shell')).toBe('Runs commands')
    expect(badge('mcp__everything__add')).toBe('Can change things')
    expect(badge('Remember', true)).toBe('Read-only')
  })

  it('is the first capability badge when the tool is named', () => {
    const caps = {
      privateData: true,
      untrustedInput: false,
      egress: 'none',
      destructive: false
    } as const
    expect(capabilityBadges(false, caps, 'Remember').map((b) => b.label)).toEqual([
      'Changes memory',
      'Private data',
      'Egress: none'
    ])
  })
})

describe('approvalPreview', () => {
  it('previews Write as a numbered diff of the whole content and Edit as old → new', () => {
    expect(approvalPreview({ tool: 'Write', input: { path: 'N.md', content: 'a\nb' } })).toEqual({
      kind: 'diff',
      path: 'N.md',
      before: '',
      after: 'a\nb'
    })
    expect(approvalPreview({ tool: 'Edit', input: { path: 'N.md', old: 'a', new: 'b' } })).toEqual({
      kind: 'diff',
      path: 'N.md',
      before: 'a',
      after: 'b'
    })
    expect(approvalPreview({ tool: 'Edit', input: { path: 'n', old: 3, new: 'b' } })).toBeNull()
    expect(approvalPreview({ tool: 'Read', input: { path: 'n' } })).toBeNull()
  })
})
