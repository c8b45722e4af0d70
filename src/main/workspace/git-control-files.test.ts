import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeFifo } from '../../../testing/fifo'
import { fingerprintGitControl, gitControlChanges, watchGitControl } from './git-control-files'

let base: string
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-git-control-')))
})
afterEach(async () => rm(base, { recursive: true, force: true }))

async function repository(root: string): Promise<void> {
  await mkdir(path.join(root, '.git', 'hooks'), { recursive: true })
  await mkdir(path.join(root, '.git', 'info'), { recursive: true })
  await writeFile(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n')
  await writeFile(path.join(root, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n')
}

describe("git's own files, watched over a turn", () => {
  it('names what was created, changed and removed, and nothing else', async () => {
    const root = path.join(base, 'project')
    await repository(root)
    await writeFile(path.join(root, '.gitattributes'), '*.txt text\n')
    await writeFile(path.join(root, '.git', 'hooks', 'post-merge'), '#!/bin/sh\n')
    await writeFile(path.join(root, 'notes.txt'), 'notes\n')
    const watch = await watchGitControl(root)
    expect(await watch.changes()).toEqual([])

    await writeFile(path.join(root, '.git', 'config'), '[core]\n\tfsmonitor = ./x\n')
    await writeFile(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n')
    await rm(path.join(root, '.gitattributes'))
    await writeFile(path.join(root, '.git', 'info', 'attributes'), '* filter=x\n')
    await chmod(path.join(root, '.git', 'hooks', 'post-merge'), 0o755)
    // A sample is never run by git, and an ordinary file is not git's.
    await writeFile(path.join(root, '.git', 'hooks', 'pre-commit.sample'), 'changed\n')
    await writeFile(path.join(root, 'notes.txt'), 'changed\n')
    expect(await watch.changes()).toEqual([
      { path: '.git/config', change: 'changed' },
      { path: '.git/hooks/post-merge', change: 'changed' },
      { path: '.git/hooks/pre-commit', change: 'created' },
      { path: '.git/info/attributes', change: 'created' },
      { path: '.gitattributes', change: 'removed' }
    ])
  })

  it('sees a hook made a link, and a hooks folder nested in hooks', async () => {
    const root = path.join(base, 'project')
    await repository(root)
    const before = await fingerprintGitControl(root)
    await symlink('/bin/true', path.join(root, '.git', 'hooks', 'pre-push'))
    await mkdir(path.join(root, '.git', 'hooks', 'pre-commit.d'))
    await writeFile(path.join(root, '.git', 'hooks', 'pre-commit.d', 'lint'), 'x\n')
    expect(gitControlChanges(before, await fingerprintGitControl(root))).toEqual([
      { path: '.git/hooks/pre-commit.d/lint', change: 'created' },
      { path: '.git/hooks/pre-push', change: 'created' }
    ])
  })

  it('follows a worktree’s `.git` file to the main repository’s config and hooks', async () => {
    const main = path.join(base, 'main')
    await repository(main)
    const worktreeGit = path.join(main, '.git', 'worktrees', 'w')
    await mkdir(worktreeGit, { recursive: true })
    await writeFile(path.join(worktreeGit, 'commondir'), '../..\n')
    const root = path.join(base, 'w')
    await mkdir(root)
    await writeFile(path.join(root, '.git'), `gitdir: ${worktreeGit}\n`)
    const watch = await watchGitControl(root)
    await writeFile(path.join(main, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\n')
    await writeFile(path.join(worktreeGit, 'config.worktree'), '[core]\n')
    expect(await watch.changes()).toEqual([
      { path: path.join(main, '.git', 'hooks', 'post-checkout'), change: 'created' },
      { path: path.join(worktreeGit, 'config.worktree'), change: 'created' }
    ])
  })

  it('looks in the repository a subfolder belongs to', async () => {
    await repository(base)
    const root = path.join(base, 'sub')
    await mkdir(root)
    const watch = await watchGitControl(root)
    await writeFile(path.join(base, '.git', 'config'), '[alias]\n')
    expect(await watch.changes()).toEqual([
      { path: path.join(base, '.git', 'config'), change: 'changed' }
    ])
  })

  it('is never held up by a FIFO in a file’s place', async () => {
    const main = path.join(base, 'main')
    await repository(main)
    const worktreeGit = path.join(main, '.git', 'worktrees', 'w')
    await mkdir(worktreeGit, { recursive: true })
    makeFifo(path.join(worktreeGit, 'commondir'))
    makeFifo(path.join(main, '.git', 'hooks', 'pre-push'))
    const root = path.join(base, 'w')
    await mkdir(root)
    await writeFile(path.join(root, '.git'), `gitdir: ${worktreeGit}\n`)
    const watch = await watchGitControl(root)
    await writeFile(path.join(worktreeGit, 'config.worktree'), '[core]\n')
    expect(await watch.changes()).toEqual([
      { path: path.join(worktreeGit, 'config.worktree'), change: 'created' }
    ])
    const fifoHook = await fingerprintGitControl(main)
    expect(fifoHook.get('.git/hooks/pre-push')).toMatch(/^other /)
  })

  it('reports nothing outside a repository or behind a broken `.git` file, and names what a removed repository lost', async () => {
    const plain = path.join(base, 'plain')
    await mkdir(plain)
    expect([...(await fingerprintGitControl(plain))]).toEqual([])

    const broken = path.join(base, 'broken')
    await mkdir(broken)
    await writeFile(path.join(broken, '.git'), 'not a pointer\n')
    const watch = await watchGitControl(broken)
    await writeFile(path.join(broken, '.git'), 'gitdir: /nowhere\n')
    expect(await watch.changes()).toEqual([])

    const gone = path.join(base, 'gone')
    await repository(gone)
    const before = await watchGitControl(gone)
    await rm(gone, { recursive: true })
    // The whole repository went with the folder: every file of it is named as removed.
    expect((await before.changes()).map((c) => c.change)).toEqual(['removed'])
  })
})
