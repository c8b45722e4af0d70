import { describe, expect, it } from 'vitest'
import { bestPossibleScore, fuzzyScore, matchPositions, rankPaths, tableScore } from './fuzzy-rank'

const ranked = (query: string, paths: string[]): string[] =>
  rankPaths(query, paths, 10).map((hit) => hit.path)

describe('fuzzy ranking of paths', () => {
  it('keeps only paths holding the query in order, whatever the case', () => {
    expect(ranked('cor', ['src/core.ts', 'README.md', 'src/CORE-notes.md', 'roc.ts'])).toEqual([
      'src/core.ts',
      'src/CORE-notes.md'
    ])
    expect(fuzzyScore('xyz', 'src/core.ts')).toBeNull()
  })

  it('puts a consecutive run before the same letters scattered', () => {
    expect(ranked('core', ['c/o/r/e.txt', 'src/main/core.ts'])).toEqual([
      'src/main/core.ts',
      'c/o/r/e.txt'
    ])
    expect(ranked('core', ['scatter-of-ore.md', 'src/core.ts'])[0]).toBe('src/core.ts')
  })

  it('prefers letters at the start of path segments and words', () => {
    expect(ranked('smc', ['schematic.ts', 'src/main/core.ts'])[0]).toBe('src/main/core.ts')
    expect(ranked('fi', ['src/profile.ts', 'src/file-index.ts'])[0]).toBe('src/file-index.ts')
    expect(ranked('ci', ['src/logic.ts', 'src/check-input.ts'])[0]).toBe('src/check-input.ts')
    expect(ranked('fv', ['src/fever.ts', 'src/fileView.ts'])[0]).toBe('src/fileView.ts')
  })

  it('lets the shorter path win a tie, then the alphabet', () => {
    expect(ranked('main', ['b/main.ts', 'a/main.ts', 'deeper/dir/main.ts'])).toEqual([
      'a/main.ts',
      'b/main.ts',
      'deeper/dir/main.ts'
    ])
  })

  it('lists the shortest paths first for an empty query', () => {
    expect(ranked('', ['src/a/b.ts', 'src', 'README.md'])).toEqual([
      'src',
      'README.md',
      'src/a/b.ts'
    ])
  })

  it('gives the positions of the best alignment, for highlighting', () => {
    expect(matchPositions('core', 'src/main/core.ts')).toEqual([9, 10, 11, 12])
    expect(matchPositions('smc', 'src/main/core.ts')).toEqual([0, 4, 9])
    expect(matchPositions('zz', 'src/main/core.ts')).toBeNull()
  })

  it('keeps only the best `limit` and counts every match', () => {
    const paths = Array.from({ length: 500 }, (_, i) => `dir${i}/file${i}.ts`)
    const hits = rankPaths('file', paths, 5)
    expect(hits).toHaveLength(5)
    expect(hits.map((h) => h.path)).toEqual([
      'dir0/file0.ts',
      'dir1/file1.ts',
      'dir2/file2.ts',
      'dir3/file3.ts',
      'dir4/file4.ts'
    ])
  })

  it('survives odd input: long paths, unicode, regex characters', () => {
    const long = `${'a/'.repeat(3000)}needle.txt`
    expect(ranked('needle', [long])).toEqual([long])
    expect(ranked('é', ['café.md', 'cafe.md'])).toEqual(['café.md'])
    expect(ranked('.*(', ['a.*(b', 'ab'])).toEqual(['a.*(b'])
    expect(ranked('a'.repeat(600), ['a'.repeat(10)])).toEqual([])
  })

  it('scores by its fast path exactly as by the full table, on many random paths', () => {
    let seed = 7
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    const alphabet = 'abcAB/-_.1'
    const pick = (length: number): string =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
    let matched = 0
    for (let trial = 0; trial < 5_000; trial++) {
      const text = pick(1 + Math.floor(next() * 30))
      const query = pick(1 + Math.floor(next() * 5)).replace(/[AB]/g, (c) => c.toLowerCase())
      const fast = fuzzyScore(query, text)
      expect(fast, `${query} in ${text}`).toBe(tableScore(query, text))
      expect(fast ?? 0).toBeLessThanOrEqual(bestPossibleScore(query.length))
      if (fast !== null) matched++
    }
    expect(matched).toBeGreaterThan(500)
  })
})
