import { mkdir, mkdtemp, realpath, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileIndex, type FileIndexOptions } from './file-index'
import { rankPaths } from './fuzzy-rank'

let base: string
let root: string
let outside: string
const open: FileIndex[] = []

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'file-index-')))
  root = path.join(base, 'project')
  outside = path.join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(path.join(outside, 'secret-plans.txt'), 'not yours')
})

afterEach(async () => {
  for (const index of open.splice(0)) index.close()
  await rm(base, { recursive: true, force: true })
})

async function put(relative: string, text = ''): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true })
  await writeFile(path.join(root, relative), text)
}

function indexOf(options: FileIndexOptions = {}): FileIndex {
  const index = new FileIndex(root, options)
  open.push(index)
  return index
}

/** Every path the index lists, sorted. */
async function listed(index: FileIndex): Promise<string[]> {
  const found = await index.find('', 10_000)
  return found.items.map((item) => (item.kind === 'folder' ? `${item.path}/` : item.path)).sort()
}

/** Asks until `check` holds, a bounded number of times; the last answer is returned. */
async function eventually(
  index: FileIndex,
  check: (paths: string[]) => boolean
): Promise<string[]> {
  let paths: string[] = []
  for (let attempt = 0; attempt < 300; attempt++) {
    paths = await listed(index)
    if (check(paths)) return paths
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return paths
}

describe('the project file index', () => {
  it('lists files and folders, never .git, and honours nested .gitignore files', async () => {
    await put('src/main/core.ts')
    await put('src/empty-dir/.keep')
    await put('.gitignore', 'build/\n*.log\n')
    await put('build/out.js')
    await put('debug.log')
    await put('pkg/.gitignore', '!keep.log\ngenerated/\n')
    await put('pkg/keep.log')
    await put('pkg/generated/x.ts')
    await put('.git/HEAD', 'ref: refs/heads/main')
    await put('.git/objects/ab/cdef')
    const paths = await listed(indexOf())
    expect(paths).toEqual([
      '.gitignore',
      'pkg/',
      'pkg/.gitignore',
      'pkg/keep.log',
      'src/',
      'src/empty-dir/',
      'src/empty-dir/.keep',
      'src/main/',
      'src/main/core.ts'
    ])
  })

  it('ranks its answers and says where each matched', async () => {
    await put('src/main/core.ts')
    await put('docs/cores-of-things.md')
    await put('c/o/r/e.txt')
    const found = await indexOf().find('core', 10)
    expect(found.items.map((item) => item.path)).toEqual([
      'src/main/core.ts',
      'docs/cores-of-things.md',
      'c/o/r/e.txt'
    ])
    expect(found.items[0]?.positions).toEqual([9, 10, 11, 12])
    expect(found.total).toBe(3)
    expect(found.complete).toBe(true)
  })

  it('answers a longer query from the narrower set, and a changed tree afresh', async () => {
    await put('alpha/beta.ts')
    await put('alpha/gamma.ts')
    const index = indexOf()
    expect((await index.find('al', 10)).total).toBe(3)
    expect((await index.find('albe', 10)).items.map((i) => i.path)).toEqual(['alpha/beta.ts'])
    await put('alpha/bell.ts')
    const paths = await eventually(index, (p) => p.includes('alpha/bell.ts'))
    expect(paths).toContain('alpha/bell.ts')
    expect((await index.find('albe', 10)).items.map((i) => i.path)).toEqual([
      'alpha/bell.ts',
      'alpha/beta.ts'
    ])
  })

  it('gives the same best answers as ranking every path, when many score the most', async () => {
    const files: string[] = []
    for (let i = 0; i < 120; i++) files.push(`pkg/p${'x'.repeat(i % 7)}/f${i}.ts`, `src/p${i}.md`)
    for (const file of files) await put(file)
    const index = indexOf()
    const every = (await index.find('', 10_000)).items.map((item) => item.path)
    for (const query of ['p', 'pk', 'pkg', 'pkg/', 'src/p1', 'f1']) {
      const found = await index.find(query, 7)
      expect(
        found.items.map((i) => i.path),
        query
      ).toEqual(rankPaths(query, every, 7).map((hit) => hit.path))
      expect(found.total, query).toBe(rankPaths(query, every, 100_000).length)
    }
  })

  it('does not list a link that leads out of the folder, nor what is behind it', async () => {
    await put('inside.txt')
    await symlink(outside, path.join(root, 'escape'))
    await symlink(path.join(outside, 'secret-plans.txt'), path.join(root, 'plans.txt'))
    const index = indexOf()
    expect(await listed(index)).toEqual(['inside.txt'])
    // Nor one made while the index is watching, nor a folder swapped for one.
    await put('later/ok.txt')
    expect(await eventually(index, (p) => p.includes('later/ok.txt'))).toContain('later/ok.txt')
    await rm(path.join(root, 'later'), { recursive: true })
    await symlink(outside, path.join(root, 'later'))
    await symlink(outside, path.join(root, 'escape-2'))
    await put('marker.txt')
    const paths = await eventually(
      index,
      (p) => p.includes('marker.txt') && !p.some((x) => x.startsWith('later'))
    )
    expect(paths).toEqual(['inside.txt', 'marker.txt'])
    expect((await index.find('secret', 10)).items).toEqual([])
  })

  it('sees files created, deleted and renamed, and folders made and removed', async () => {
    await put('keep.txt')
    await put('old-name.txt')
    await put('doomed.txt')
    const index = indexOf()
    expect(await listed(index)).toEqual(['doomed.txt', 'keep.txt', 'old-name.txt'])

    await put('fresh.txt')
    await unlink(path.join(root, 'doomed.txt'))
    await rename(path.join(root, 'old-name.txt'), path.join(root, 'new-name.txt'))
    await put('made/deep/er/leaf.ts')
    const after = ['fresh.txt', 'keep.txt', 'made/', 'made/deep/', 'made/deep/er/']
    const expected = [...after, 'made/deep/er/leaf.ts', 'new-name.txt']
    expect(await eventually(index, (p) => p.join() === expected.join())).toEqual(expected)

    // A file made in a folder the index only just found is seen too.
    await put('made/deep/er/second.ts')
    expect(await eventually(index, (p) => p.includes('made/deep/er/second.ts'))).toContain(
      'made/deep/er/second.ts'
    )
    await rename(path.join(root, 'made'), path.join(root, 'moved'))
    const moved = await eventually(
      index,
      (p) => p.includes('moved/deep/er/second.ts') && !p.some((x) => x.startsWith('made'))
    )
    expect(moved.filter((p) => p.startsWith('m'))).toEqual([
      'moved/',
      'moved/deep/',
      'moved/deep/er/',
      'moved/deep/er/leaf.ts',
      'moved/deep/er/second.ts'
    ])
    await rm(path.join(root, 'moved'), { recursive: true })
    expect(await eventually(index, (p) => !p.some((x) => x.startsWith('moved')))).toEqual([
      'fresh.txt',
      'keep.txt',
      'new-name.txt'
    ])
  })

  it('sees a folder swapped for a file and back, and a folder made inside a big one', async () => {
    await put('swap/inner.txt')
    await put('big/a.txt')
    const index = indexOf()
    expect(await listed(index)).toEqual(['big/', 'big/a.txt', 'swap/', 'swap/inner.txt'])
    await rm(path.join(root, 'swap'), { recursive: true })
    await put('swap', 'now a file')
    expect(await eventually(index, (p) => p.includes('swap'))).toEqual([
      'big/',
      'big/a.txt',
      'swap'
    ])
    await unlink(path.join(root, 'swap'))
    await put('swap/again.txt')
    await put('big/sub/b.txt')
    const expected = ['big/', 'big/a.txt', 'big/sub/', 'big/sub/b.txt', 'swap/', 'swap/again.txt']
    expect(await eventually(index, (p) => p.join() === expected.join())).toEqual(expected)
    // The folder made inside is watched too.
    await put('big/sub/c.txt')
    expect(await eventually(index, (p) => p.includes('big/sub/c.txt'))).toContain('big/sub/c.txt')
  })

  it('follows a changed .gitignore, and leaves out files made in an ignored folder', async () => {
    await put('.gitignore', 'dist/\n')
    await put('dist/a.js')
    await put('notes.txt')
    const index = indexOf()
    expect(await listed(index)).toEqual(['.gitignore', 'notes.txt'])
    await put('dist/b.js')
    await put('notes-2.txt')
    expect(await eventually(index, (p) => p.includes('notes-2.txt'))).toEqual([
      '.gitignore',
      'notes-2.txt',
      'notes.txt'
    ])
    await put('.gitignore', 'notes*.txt\n')
    expect(
      await eventually(index, (p) => p.join() === '.gitignore,dist/,dist/a.js,dist/b.js')
    ).toEqual(['.gitignore', 'dist/', 'dist/a.js', 'dist/b.js'])
  })

  it('falls back to bounded rescans when it cannot watch, and says so', async () => {
    await put('a.txt')
    const lines: string[] = []
    const index = indexOf({ maxWatchedDirs: 0, rescanEveryMs: 10, log: (line) => lines.push(line) })
    expect(await listed(index)).toEqual(['a.txt'])
    expect(lines.join('\n')).toMatch(/cannot watch .*project.*rescanned/)
    await put('b.txt')
    expect(await eventually(index, (p) => p.includes('b.txt'))).toEqual(['a.txt', 'b.txt'])
  })

  it('stops at its bound and says the list is incomplete', async () => {
    for (let i = 0; i < 30; i++) await put(`f${i}.txt`)
    const found = await indexOf({ maxEntries: 10 }).find('', 100)
    expect(found.items).toHaveLength(10)
    expect(found.complete).toBe(false)
  })
})
