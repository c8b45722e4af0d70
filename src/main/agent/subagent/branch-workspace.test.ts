import { mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyBranch, createBranch } from './branch-workspace'

let dir: string
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('a branch copy', () => {
  it('refuses to apply, touching nothing, when the folder changed the same file meanwhile', async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-branchws-')))
    await writeFile(path.join(dir, 'a.txt'), 'one\n')
    const branch = await createBranch(dir)
    await writeFile(path.join(branch.root, 'a.txt'), 'branch\n')
    await writeFile(path.join(branch.root, 'new.txt'), 'new\n')
    await writeFile(path.join(dir, 'a.txt'), 'person\n')

    await expect(applyBranch(branch, dir)).rejects.toThrow(/a\.txt.*nothing was applied/)
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('person\n')
    expect(await readdir(dir)).toEqual(['a.txt'])
    // The copy's own git directory sits beside it, never inside where the child would see it.
    expect(await readdir(branch.root)).toEqual(['a.txt', 'new.txt'])
    await branch.remove()
  })
})
