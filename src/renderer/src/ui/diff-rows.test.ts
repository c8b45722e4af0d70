import { describe, expect, it } from 'vitest'
import { diffRows, type DiffRow } from './diff-rows'

const numbered = (count: number, prefix = 'line'): string =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n'

/** The rows as short strings: `-3 x` removed old line 3, `+4 y` added new line 4, `~2` a gap. */
function brief(rows: DiffRow[]): string[] {
  return rows.map((row) => {
    if (row.kind === 'gap') return `~${row.count}`
    if (row.kind === 'add') return `+${row.newLine} ${row.text}`
    if (row.kind === 'remove') return `-${row.oldLine} ${row.text}`
    return ` ${row.oldLine}:${row.newLine} ${row.text}`
  })
}

describe('diffRows', () => {
  it('shows a new file as all additions, numbered from 1', () => {
    const diff = diffRows(null, 'one\ntwo\n')
    expect(brief(diff.rows)).toEqual(['+1 one', '+2 two'])
    expect(diff).toMatchObject({ added: 2, removed: 0 })
  })

  it('numbers both sides of a change and keeps three lines of context around it', () => {
    const before = numbered(20)
    const after = before.replace('line 10\n', 'ten\nTEN\n')
    const diff = diffRows(before, after)
    expect(brief(diff.rows)).toEqual([
      '~6',
      ' 7:7 line 7',
      ' 8:8 line 8',
      ' 9:9 line 9',
      '-10 line 10',
      '+10 ten',
      '+11 TEN',
      ' 11:12 line 11',
      ' 12:13 line 12',
      ' 13:14 line 13',
      '~7'
    ])
    expect(diff).toMatchObject({ added: 2, removed: 1 })
  })

  it('folds the unchanged lines between two distant changes, and only those', () => {
    const before = numbered(30)
    const after = before.replace('line 2\n', 'two\n').replace('line 29\n', 'twenty-nine\n')
    const rows = diffRows(before, after).rows
    expect(brief(rows).filter((r) => r.startsWith('~'))).toEqual(['~20'])
    expect(brief(rows)[0]).toBe(' 1:1 line 1')
  })

  it('shows a short unchanged run whole rather than fold a single line', () => {
    const before = numbered(8)
    const after = before.replace('line 1\n', 'one\n').replace('line 8\n', 'eight\n')
    const rows = diffRows(before, after).rows
    expect(rows.some((r) => r.kind === 'gap')).toBe(false)
    expect(rows.filter((r) => r.kind === 'same')).toHaveLength(6)
  })

  it('shows an emptied file as all removals', () => {
    expect(brief(diffRows('a\nb\n', '').rows)).toEqual(['-1 a', '-2 b'])
  })

  it('shows a rewrite that differs almost everywhere as the old removed and the new added', () => {
    const diff = diffRows(numbered(1200, 'old'), numbered(1300, 'new'))
    expect(diff).toMatchObject({ added: 1300, removed: 1200 })
    expect(brief(diff.rows.slice(1199, 1201))).toEqual(['-1200 old 1200', '+1 new 1'])
  })
})
