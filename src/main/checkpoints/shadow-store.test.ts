import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ShadowStore } from './shadow-store'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function folder(): Promise<{ workspace: string; store: ShadowStore; root: string }> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-checkpoints-')))
  dirs.push(dir)
  const workspace = path.join(dir, 'project')
  await mkdir(path.join(workspace, 'src'), { recursive: true })
  await writeFile(path.join(workspace, 'README.md'), '# Project\n')
  await writeFile(path.join(workspace, 'src', 'a.txt'), 'alpha\n')
  const root = path.join(dir, 'data', 'checkpoints')
  return { workspace, store: new ShadowStore({ root, workspace }), root }
}

/** Every file under a folder with its bytes' hash: what "byte-identical" is checked by. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(dir, name)
    if (statSync(full).isFile()) {
      out[name] = createHash('sha256').update(readFileSync(full)).digest('hex')
    }
  }
  return out
}

const text = (workspace: string, file: string): Promise<string> =>
  readFile(path.join(workspace, file), 'utf8')

describe('the shadow store', () => {
  it('undoes a write, an edit, a sed -i and an rm, and redoes them with the restore undone', async () => {
    const { workspace, store } = await folder()
    await writeFile(path.join(workspace, 'src', 'b.txt'), 'beta\n')
    const before = await store.take('before the turn')
    await writeFile(path.join(workspace, 'new.txt'), 'created by Write\n')
    await writeFile(path.join(workspace, 'README.md'), '# Project, edited\n')
    execFileSync('sed', ['-i', 's/alpha/ALPHA/', path.join(workspace, 'src', 'a.txt')])
    execFileSync('rm', [path.join(workspace, 'src', 'b.txt')])
    const after = await store.take('after the calls')
    expect(
      (await store.changes(before.id, after.id)).sort((a, b) => (a.path < b.path ? -1 : 1))
    ).toEqual([
      { path: 'README.md', change: 'changed' },
      { path: 'new.txt', change: 'created' },
      { path: 'src/a.txt', change: 'changed' },
      { path: 'src/b.txt', change: 'deleted' }
    ])

    const undo = await store.restore(before.id)
    expect(existsSync(path.join(workspace, 'new.txt'))).toBe(false)
    expect(await text(workspace, 'README.md')).toBe('# Project\n')
    expect(await text(workspace, 'src/a.txt')).toBe('alpha\n')
    expect(await text(workspace, 'src/b.txt')).toBe('beta\n')

    await store.restore(undo.id)
    expect(existsSync(path.join(workspace, 'src', 'b.txt'))).toBe(false)
    expect(await text(workspace, 'new.txt')).toBe('created by Write\n')
    expect(await text(workspace, 'README.md')).toBe('# Project, edited\n')
    expect(await text(workspace, 'src/a.txt')).toBe('ALPHA\n')
  })

  it('brings back a deleted file, and restores only the files asked for', async () => {
    const { workspace, store } = await folder()
    const before = await store.take('before')
    await rm(path.join(workspace, 'src', 'a.txt'))
    await writeFile(path.join(workspace, 'README.md'), 'changed\n')
    await store.restore(before.id, ['src/a.txt'])
    expect(await text(workspace, 'src/a.txt')).toBe('alpha\n')
    expect(await text(workspace, 'README.md')).toBe('changed\n')
  })

  it('never touches the project’s own .git, nor stores it', async () => {
    const { workspace, store } = await folder()
    const git = (...args: string[]): void =>
      void execFileSync('git', args, { cwd: workspace, stdio: 'ignore' })
    git('init', '-q')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first')
    await writeFile(path.join(workspace, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n')
    const gitBefore = fingerprint(path.join(workspace, '.git'))
    const first = await store.take('before')
    await writeFile(path.join(workspace, 'README.md'), 'changed\n')
    await store.take('after')
    const undo = await store.restore(first.id)
    await store.restore(undo.id)
    expect(fingerprint(path.join(workspace, '.git'))).toEqual(gitBefore)
    expect(await store.changes(first.id)).toEqual([{ path: 'README.md', change: 'changed' }])
    const stored = execFileSync('git', ['ls-tree', '-r', '--name-only', first.id], {
      env: { ...process.env, GIT_DIR: store.gitDir },
      encoding: 'utf8'
    })
    expect(stored.split('\n')).not.toContain('.git/HEAD')
  })

  it('follows nested .gitignore files and reports oversized files as not covered', async () => {
    const { workspace, root } = await folder()
    const store = new ShadowStore({ root, workspace, maxFileBytes: 1000 })
    await writeFile(path.join(workspace, 'src', '.gitignore'), 'secret.txt\n')
    await writeFile(path.join(workspace, 'src', 'secret.txt'), 'ignored\n')
    await writeFile(path.join(workspace, 'big.log'), 'x'.repeat(5000))
    const taken = await store.take('first')
    expect(taken.notCovered).toEqual([{ path: 'big.log', why: 'over the 1000-byte limit' }])
    const stored = execFileSync('git', ['ls-tree', '-r', '--name-only', taken.id], {
      env: { ...process.env, GIT_DIR: store.gitDir },
      encoding: 'utf8'
    })
    expect(stored.split('\n').filter(Boolean).sort()).toEqual([
      'README.md',
      'src/.gitignore',
      'src/a.txt'
    ])
  })

  it('lists its checkpoints newest first, and an unchanged folder adds none', async () => {
    const { workspace, store } = await folder()
    const one = await store.take('one', 's1')
    const same = await store.take('again, nothing changed', 's1')
    expect(same.id).toBe(one.id)
    await writeFile(path.join(workspace, 'README.md'), 'two\n')
    const two = await store.take('two', 's1')
    expect((await store.list()).map((c) => [c.id, c.reason, c.sessionId])).toEqual([
      [two.id, 'two', 's1'],
      [one.id, 'one', 's1']
    ])
  })
})
