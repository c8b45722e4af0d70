// Which git folders a confined command gets read-only, found as git finds them: a folder, a
// worktree's or submodule's `.git` file, a link, a repository above the project, never a
// repository whose work tree is the home directory.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { repositoryView } from './git-dirs'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tree(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-git-dirs-')))
  dirs.push(dir)
  return dir
}

describe('the git folders a confined command sees read-only', () => {
  it('is the project’s own .git folder', async () => {
    const dir = await tree()
    await mkdir(path.join(dir, '.git'))
    expect(repositoryView(dir, '/nowhere')).toEqual({
      gitDirs: [path.join(dir, '.git')],
      top: null
    })
  })

  it('follows a worktree’s .git file to its git folder and the common one', async () => {
    const dir = await tree()
    const main = path.join(dir, 'main')
    const wt = path.join(dir, 'wt')
    await mkdir(path.join(main, '.git', 'worktrees', 'wt'), { recursive: true })
    await writeFile(path.join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n')
    await mkdir(wt)
    await writeFile(
      path.join(wt, '.git'),
      `gitdir: ${path.join(main, '.git', 'worktrees', 'wt')}\n`
    )
    expect(repositoryView(wt, '/nowhere').gitDirs).toEqual([
      path.join(wt, '.git'),
      path.join(main, '.git', 'worktrees', 'wt'),
      path.join(main, '.git')
    ])
  })

  it('follows a .git that is a link to the folder it leads to', async () => {
    const dir = await tree()
    await mkdir(path.join(dir, 'real-git'))
    await symlink(path.join(dir, 'real-git'), path.join(dir, '.git'))
    expect(repositoryView(dir, '/nowhere').gitDirs).toEqual([path.join(dir, 'real-git')])
  })

  it('shows the top of a repository above the project, read-only', async () => {
    const dir = await tree()
    await mkdir(path.join(dir, '.git'))
    await mkdir(path.join(dir, 'sub', 'deeper'), { recursive: true })
    expect(repositoryView(path.join(dir, 'sub', 'deeper'), '/nowhere')).toEqual({
      gitDirs: [path.join(dir, '.git')],
      top: dir
    })
  })

  it('shows nothing of a repository whose work tree holds the home directory', async () => {
    const dir = await tree()
    await mkdir(path.join(dir, '.git'))
    const home = path.join(dir, 'home')
    await mkdir(path.join(home, 'project'), { recursive: true })
    expect(repositoryView(path.join(home, 'project'), home)).toEqual({ gitDirs: [], top: null })
  })

  it('is nothing outside a repository', async () => {
    expect(repositoryView(await tree(), '/nowhere').gitDirs).toEqual([])
  })
})
