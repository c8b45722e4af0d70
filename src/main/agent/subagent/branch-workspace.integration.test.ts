import { execFileSync } from 'node:child_process'
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

describe('branch copies in one git repository', () => {
  // Sixty git worktrees made and removed: seconds of git on a loaded machine.
  it(
    'are made and removed many at once (parallel runs side by side), none failing',
    { timeout: 60_000 },
    async () => {
      dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-branchws-')))
      const git = (...args: string[]): string =>
        execFileSync('git', args, { cwd: dir, encoding: 'utf8' })
      await writeFile(path.join(dir, 'a.txt'), 'one\n')
      git('init', '-q')
      git('add', '-A')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first')
      await writeFile(path.join(dir, 'b.txt'), 'uncommitted\n')
      const failures: string[] = []
      // Several rounds of copies made together while the previous round's are being removed: how
      // two Parallel calls of one step, or a merge and a new run, meet in a repository.
      let removing: Promise<unknown> = Promise.resolve()
      for (let round = 0; round < 10; round++) {
        const made = await Promise.allSettled(Array.from({ length: 6 }, () => createBranch(dir)))
        for (const m of made) if (m.status === 'rejected') failures.push(String(m.reason))
        const branches = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []))
        for (const b of branches) {
          expect((await readdir(b.root)).filter((f) => f !== '.git').sort()).toEqual([
            'a.txt',
            'b.txt'
          ])
        }
        await removing
        removing = Promise.all(branches.map((b) => b.remove()))
      }
      await removing
      expect(failures).toEqual([])
      expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1)
    }
  )
})
