import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileIndexes } from './file-indexes'

let base = ''
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true })
})

describe('the finder indexes of a process', () => {
  it('keeps one index per folder, a bounded few, letting go of the least recently used', async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'file-indexes-')))
    const folders: string[] = []
    for (let i = 0; i < 6; i++) {
      const folder = path.join(base, `p${i}`)
      await mkdir(folder)
      await writeFile(path.join(folder, `only-in-${i}.txt`), '')
      folders.push(folder)
    }
    const indexes = new FileIndexes()
    const [first, second] = [indexes.of(folders[0] ?? ''), indexes.of(folders[1] ?? '')]
    expect(indexes.of(folders[0] ?? '')).toBe(first)
    for (const folder of folders.slice(2)) indexes.of(folder)
    // p0 was used again after p1, so p1 is the one let go first; p0 went when p5 came.
    expect(indexes.of(folders[1] ?? '')).not.toBe(second)
    expect((await indexes.of(folders[3] ?? '').find('only', 5)).items).toEqual([
      { path: 'only-in-3.txt', kind: 'file', positions: [0, 1, 2, 3] }
    ])
    indexes.close()
  })
})
