import { describe, expect, it } from 'vitest'
import { firstMatches, groupByFile, highlightSegments } from './match-groups'

describe('highlightSegments', () => {
  it('marks each hit and keeps the text between', () => {
    expect(
      highlightSegments('let foo = foo()', [
        [4, 7],
        [10, 13]
      ])
    ).toEqual([
      { text: 'let ', hit: false },
      { text: 'foo', hit: true },
      { text: ' = ', hit: false },
      { text: 'foo', hit: true },
      { text: '()', hit: false }
    ])
  })

  it('merges overlapping and touching hits, sorts them, and clamps them to the line', () => {
    expect(
      highlightSegments('abcdef', [
        [4, 99],
        [1, 3],
        [2, 4],
        [-5, 0]
      ])
    ).toEqual([
      { text: 'a', hit: false },
      { text: 'bcdef', hit: true }
    ])
  })

  it('gives the whole line as one plain segment when there is no hit', () => {
    expect(highlightSegments('plain', [])).toEqual([{ text: 'plain', hit: false }])
    expect(highlightSegments('', [])).toEqual([{ text: '', hit: false }])
  })
})

describe('groupByFile', () => {
  it('groups matches by file in the order the files first appear', () => {
    const m = (
      path: string,
      line: number
    ): { path: string; line: number; text: string; ranges: [] } => ({
      path,
      line,
      text: '',
      ranges: []
    })
    const groups = groupByFile([m('b.ts', 3), m('a.ts', 1), m('b.ts', 9)])
    expect(groups.map((g) => [g.path, g.matches.map((x) => x.line)])).toEqual([
      ['b.ts', [3, 9]],
      ['a.ts', [1]]
    ])
  })
})

describe('firstMatches', () => {
  it('keeps the first matches in file order, cutting the last file kept short', () => {
    const m = (
      path: string,
      line: number
    ): { path: string; line: number; text: string; ranges: [] } => ({
      path,
      line,
      text: '',
      ranges: []
    })
    const groups = groupByFile([m('a', 1), m('a', 2), m('b', 1), m('b', 2), m('c', 1)])
    expect(firstMatches(groups, 3).map((g) => [g.path, g.matches.length])).toEqual([
      ['a', 2],
      ['b', 1]
    ])
    expect(firstMatches(groups, 10)).toEqual(groups)
  })
})
