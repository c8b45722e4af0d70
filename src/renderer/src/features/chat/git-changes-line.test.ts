import { describe, expect, it } from 'vitest'
import { gitChangesLine } from './git-changes-line'

describe('the warning under a turn that changed git’s own files', () => {
  it('says what changed and what to do, grouped by what happened', () => {
    expect(
      gitChangesLine([
        { path: '.git/config', change: 'changed' },
        { path: '.git/hooks/pre-commit', change: 'created' }
      ])
    ).toBe(
      'This turn changed .git/config and created .git/hooks/pre-commit: git may now run programs from them; look at them before you run git here.'
    )
    expect(
      gitChangesLine([
        { path: '.gitattributes', change: 'removed' },
        { path: '.git/hooks/post-merge', change: 'removed' }
      ])
    ).toBe(
      'This turn removed .gitattributes and .git/hooks/post-merge: look before you run git here.'
    )
  })

  it('counts the rest of a long list instead of naming every file', () => {
    const hooks = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
      path: `.git/hooks/${name}`,
      change: 'created' as const
    }))
    expect(gitChangesLine([{ path: '.git/config', change: 'changed' }, ...hooks])).toBe(
      'This turn changed .git/config and created .git/hooks/a, .git/hooks/b, .git/hooks/c and 2 more: git may now run programs from them; look at them before you run git here.'
    )
  })
})
