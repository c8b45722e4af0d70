import { describe, expect, it } from 'vitest'
import { shellFindings, shownCommand } from './shell-words'

describe('shellFindings', () => {
  it('says in words what the parser found, in the order it matters', () => {
    expect(
      shellFindings({
        commands: ['date', 'echo "$(date)"', 'wc -l'],
        redirections: [
          { source: '< in.txt', access: 'read' },
          { source: '> out.txt', access: 'write' },
          { source: '>> log.txt', access: 'write' }
        ],
        substitutions: ['$(date)'],
        concerns: ['`eval` runs code that the rule cannot see']
      })
    ).toEqual([
      {
        kind: 'runs',
        summary: 'Runs 3 commands, in this order',
        items: ['date', 'echo "$(date)"', 'wc -l']
      },
      {
        kind: 'writes',
        summary: 'Writes to 2 files by redirection',
        items: ['> out.txt', '>> log.txt']
      },
      { kind: 'reads', summary: 'Reads 1 file by redirection', items: ['< in.txt'] },
      {
        kind: 'substitutes',
        summary: 'Runs 1 substitution first and puts its output into the line',
        items: ['$(date)']
      },
      {
        kind: 'concerns',
        summary: 'Cannot be judged by its words alone',
        items: ['`eval` runs code that the rule cannot see']
      }
    ])
  })

  it('says so when a line runs no command, and leaves out what is not there', () => {
    expect(
      shellFindings({ commands: [], redirections: [], substitutions: [], concerns: [] })
    ).toEqual([{ kind: 'runs', summary: 'Runs no command', items: [] }])
    expect(
      shellFindings({ commands: ['ls'], redirections: [], substitutions: [], concerns: [] })
    ).toEqual([{ kind: 'runs', summary: 'Runs 1 command', items: ['ls'] }])
  })
})

describe('shownCommand', () => {
  it('shows characters that would hide or reorder what runs, instead of obeying them', () => {
    // U+202E would display `echo safe; txt.exe` for a line that runs something else.
    expect(shownCommand('echo safe\u202E; rm -rf ~')).toBe('echo safe⟨U+202E⟩; rm -rf ~')
    expect(shownCommand('a\u200Bb\u0007c\r')).toBe('a⟨U+200B⟩b⟨U+0007⟩c⟨U+000D⟩')
    expect(shownCommand('ls\n\tgit status')).toBe('ls\n\tgit status')
  })
})
