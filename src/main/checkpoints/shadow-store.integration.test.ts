import { execFileSync } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointFolder, fingerprint, storedFiles } from '../../../testing/checkpoint-folder'
import { IGNORED, type TakenCheckpoint } from './shadow-store'

const MIB = 1024 * 1024

describe('the shadow store', () => {
  it('undoes a write, an edit, a sed -i and an rm, and redoes them with the restore undone', async () => {
    const { workspace, store, write, read } = await checkpointFolder()
    await write('src/b.txt', 'beta\n')
    const before = await store.take('before the turn')
    await write('new.txt', 'created by Write\n')
    await write('README.md', '# Project, edited\n')
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
    expect(await read('new.txt')).toBeNull()
    expect(await read('README.md')).toBe('# Project\n')
    expect(await read('src/a.txt')).toBe('alpha\n')
    expect(await read('src/b.txt')).toBe('beta\n')

    await store.restore(undo.undo.id)
    expect(await read('src/b.txt')).toBeNull()
    expect(await read('new.txt')).toBe('created by Write\n')
    expect(await read('README.md')).toBe('# Project, edited\n')
    expect(await read('src/a.txt')).toBe('ALPHA\n')
  })

  it('brings back a deleted file, and restores only the files asked for', async () => {
    const { workspace, store, write, read } = await checkpointFolder()
    const before = await store.take('before')
    await rm(path.join(workspace, 'src', 'a.txt'))
    await write('README.md', 'changed\n')
    await store.restore(before.id, ['src/a.txt'])
    expect(await read('src/a.txt')).toBe('alpha\n')
    expect(await read('README.md')).toBe('changed\n')
  })

  it('never touches the project’s own .git, nor stores it', async () => {
    const { workspace, store, write } = await checkpointFolder()
    const git = (...args: string[]): void =>
      void execFileSync('git', args, { cwd: workspace, stdio: 'ignore' })
    git('init', '-q')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first')
    await writeFile(path.join(workspace, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n')
    const gitBefore = fingerprint(path.join(workspace, '.git'))
    const first = await store.take('before')
    await write('README.md', 'changed\n')
    await store.take('after')
    const undo = await store.restore(first.id)
    await store.restore(undo.undo.id)
    expect(fingerprint(path.join(workspace, '.git'))).toEqual(gitBefore)
    expect(await store.changes(first.id)).toEqual([{ path: 'README.md', change: 'changed' }])
    expect(storedFiles(store, first.id)).toEqual(['README.md', 'src/a.txt'])
  })

  it('follows a checkpoint another process took in between, and after a clean-up packs its refs', async () => {
    const { store, reopen, write } = await checkpointFolder()
    const other = reopen()
    await write('one.txt', '1\n')
    const mine = await store.take('mine')
    await write('two.txt', '2\n')
    const theirs = await other.take('theirs')
    expect(theirs.previous).toBe(mine.id)
    // The ref now names the other process's checkpoint: this store must not chain onto its own.
    await write('three.txt', '3\n')
    const next = await store.take('next')
    expect(next.previous).toBe(theirs.id)
    await store.compact()
    await write('four.txt', '4\n')
    const packed = await store.take('after a clean-up')
    expect(packed.previous).toBe(next.id)
    // A restore of a few files goes by the newest checkpoint as well.
    const undo = await other.restore(mine.id, ['two.txt'])
    expect(undo.undo.previous).toBe(packed.id)
  })

  it('lists its checkpoints newest first, and an unchanged folder adds none', async () => {
    const { store, write } = await checkpointFolder()
    const one = await store.take('one', 's1')
    const same = await store.take('again, nothing changed', 's1')
    expect(same.id).toBe(one.id)
    await write('README.md', 'two\n')
    const two = await store.take('two', 's1')
    expect((await store.list()).map((c) => [c.id, c.reason, c.sessionId])).toEqual([
      [two.id, 'two', 's1'],
      [one.id, 'one', 's1']
    ])
  })

  it('keeps the list newest first when the clock stands still or goes back', async () => {
    let clock = 1_700_000_000_000
    const { store, write } = await checkpointFolder({ now: () => clock })
    const taken: string[] = []
    for (let i = 0; i < 8; i++) {
      await write('README.md', `round ${i}\n`)
      taken.push((await store.take(`round ${i}`)).id)
      if (i === 4) clock -= 60_000
    }
    expect((await store.list()).map((c) => c.id)).toEqual(taken.reverse())
  })
})

describe('what a checkpoint does not cover', () => {
  it('reports an ignored file and an oversized one, and a restore leaves both as they are', async () => {
    const { store, write, read } = await checkpointFolder({ maxFileBytes: 1000 })
    await write('src/.gitignore', 'secret.txt\n')
    await write('src/secret.txt', 'ignored\n')
    await write('big.log', 'x'.repeat(5000))
    const first = await store.take('first')
    const notCovered = [
      { path: 'big.log', why: 'over the 1000-byte limit' },
      { path: 'src/secret.txt', why: IGNORED }
    ]
    // A take does not walk the folder a second time for what .gitignore leaves out; a plan does.
    expect(first.notCovered).toEqual([notCovered[0]])
    expect(storedFiles(store, first.id)).toEqual(['README.md', 'src/.gitignore', 'src/a.txt'])

    await write('README.md', 'changed\n')
    await write('src/secret.txt', 'mine\n')
    await write('big.log', 'y'.repeat(5000))
    const plan = await store.plan(first.id)
    expect(plan).toEqual({
      changes: [{ path: 'README.md', change: 'changed' }],
      conflicts: ['README.md'],
      notCovered
    })
    await store.restore(first.id, ['big.log', 'src/secret.txt'])
    await store.restore(first.id)
    expect(await read('README.md')).toBe('# Project\n')
    expect(await read('src/secret.txt')).toBe('mine\n')
    expect(await read('big.log')).toBe('y'.repeat(5000))
  })

  it('never puts an older copy over a file it now leaves out', async () => {
    const { workspace, store, write, read } = await checkpointFolder()
    await write('notes.log', 'v1\n')
    const first = await store.take('first')
    // The agent deletes the log and ignores logs; then the person writes a new one.
    await rm(path.join(workspace, 'notes.log'))
    await write('.gitignore', '*.log\n')
    await store.take('after the agent')
    await write('notes.log', 'mine\n')
    const plan = await store.plan(first.id)
    expect(plan.changes).toEqual([{ path: '.gitignore', change: 'created' }])
    expect(plan.notCovered).toEqual([{ path: 'notes.log', why: IGNORED }])
    const restored = await store.restore(first.id)
    expect(restored.changes).toEqual([{ path: '.gitignore', change: 'created' }])
    expect(await read('.gitignore')).toBeNull()
    expect(await read('notes.log')).toBe('mine\n')
  })

  it('leaves a file that grew over the limit since as it is, and covers it again once it shrinks', async () => {
    const f = await checkpointFolder({ maxFileBytes: 1000 })
    await f.write('data.txt', 'small\n')
    const first = await f.store.take('first')
    await f.write('data.txt', 'y'.repeat(5000))
    await f.write('README.md', 'changed\n')
    const grown = await f.store.take('grown')
    expect(grown.notCovered).toEqual([{ path: 'data.txt', why: 'over the 1000-byte limit' }])
    // As after a restart: what was left out is known to a new store too.
    const store = f.reopen()
    const plan = await store.plan(first.id)
    expect(plan.changes).toEqual([{ path: 'README.md', change: 'changed' }])
    expect(plan.notCovered).toEqual(grown.notCovered)
    // There is no copy of its current bytes to undo to: neither a restore of all nor of it alone
    // touches it.
    await store.restore(first.id, ['data.txt'])
    await store.restore(first.id)
    expect(await f.read('README.md')).toBe('# Project\n')
    expect(await f.read('data.txt')).toBe('y'.repeat(5000))

    await f.write('data.txt', 'small again\n')
    const shrunk = await store.take('shrunk')
    expect(shrunk.notCovered).toEqual([])
    expect((await store.fileAt(shrunk.id, 'data.txt'))?.toString()).toBe('small again\n')
    await f.write('data.txt', 'changed again\n')
    await store.restore(shrunk.id)
    expect(await f.read('data.txt')).toBe('small again\n')
  })

  it('leaves out binary files over 1 MiB and any file over 5 MiB, and keeps a 2 MiB text file', async () => {
    const { store, write } = await checkpointFolder()
    await write('image.bin', Buffer.alloc(MIB + 1))
    await write('icon.bin', Buffer.alloc(MIB))
    await write('data.csv', '1,2,3,4\n'.repeat((2 * MIB) / 8))
    await write('dump.sql', 'insert\n'.repeat(Math.ceil((5 * MIB + 1) / 7)))
    const taken = await store.take('defaults')
    expect(taken.notCovered).toEqual([
      { path: 'dump.sql', why: 'over the 5 MiB limit' },
      { path: 'image.bin', why: 'a binary file over 1 MiB' }
    ])
    expect(storedFiles(store, taken.id)).toEqual(['README.md', 'data.csv', 'icon.bin', 'src/a.txt'])
  })

  it('reports a nested git repository, with or without a commit, and still checkpoints the rest', async () => {
    const { workspace, store, write } = await checkpointFolder()
    execFileSync('git', ['init', '-q', path.join(workspace, 'fresh')])
    await write('fresh/f.txt', 'f\n')
    execFileSync('git', ['init', '-q', path.join(workspace, 'vendor', 'lib')])
    await write('vendor/lib/g.txt', 'g\n')
    execFileSync('git', ['-C', path.join(workspace, 'vendor', 'lib'), 'add', 'g.txt'])
    execFileSync('git', [
      '-C',
      path.join(workspace, 'vendor', 'lib'),
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '-m',
      'x'
    ])
    await write('README.md', 'changed\n')
    const taken = await store.take('nested')
    const why = 'a git repository of its own: its files are not checkpointed'
    expect(taken.notCovered).toEqual([
      { path: 'fresh', why },
      { path: 'vendor/lib', why }
    ])
    expect(storedFiles(store, taken.id)).toEqual(['README.md', 'src/a.txt'])
  })
})

describe('checkpoints asked for at once', () => {
  it('takes twenty at once while files change, with clean-ups beside them, in order', async () => {
    const { store, write } = await checkpointFolder()
    const takes: Promise<TakenCheckpoint>[] = []
    let done = false
    // git gc removes emptied object folders as a take writes into them: clean-ups run all along.
    const cleanUps = (async (): Promise<void> => {
      for (let i = 0; i < 20 && !done; i++) await store.compact()
    })()
    for (let i = 0; i < 20; i++) {
      takes.push(store.take(`take ${i}`, 's'))
      await write(`src/file-${i % 5}.txt`, `round ${i}\n`)
    }
    const taken = await Promise.all(takes).finally(() => {
      done = true
    })
    await cleanUps
    for (let i = 1; i < taken.length; i++) {
      const [before, now] = [taken[i - 1], taken[i]]
      if (now?.id !== before?.id) expect(now?.previous).toBe(before?.id)
    }
    const ids = [...new Set(taken.map((t) => t.id))]
    expect((await store.list()).map((c) => c.id)).toEqual(ids.reverse())
    const last = await store.take('settled')
    expect(await store.changes(last.id)).toEqual([])
    for (let i = 15; i < 20; i++) {
      expect((await store.fileAt(last.id, `src/file-${i % 5}.txt`))?.toString()).toBe(
        `round ${i}\n`
      )
    }
  })

  it('never mixes a restore with a take fired beside it', async () => {
    const { store, write, read } = await checkpointFolder()
    const first = await store.take('first')
    await write('README.md', 'changed\n')
    await write('new.txt', 'new\n')
    await store.take('second')
    const [restored, racing] = await Promise.all([
      store.restore(first.id),
      store.take('racing'),
      write('src/a.txt', 'written meanwhile\n')
    ])
    expect(await read('README.md')).toBe('# Project\n')
    expect(await read('new.txt')).toBeNull()
    // The take ran after the restore: it holds the folder as the restore left it.
    expect(await store.changes(racing.id)).toEqual([])
    await store.restore(restored.undo.id)
    expect(await read('README.md')).toBe('changed\n')
    expect(await read('new.txt')).toBe('new\n')
  })

  it('is not stopped by the locks a killed run left behind', async () => {
    const f = await checkpointFolder()
    const first = await f.store.take('first')
    await f.write('README.md', 'after the crash\n')
    // Killed while git held the index, and while it moved the refs.
    await writeFile(path.join(f.store.gitDir, 'mecatl-index.lock'), '')
    await writeFile(path.join(f.store.gitDir, 'refs', 'mecatl', 'latest.lock'), '')
    await writeFile(path.join(f.store.gitDir, 'packed-refs.lock'), '')
    const store = f.reopen()
    const next = await store.take('after a restart')
    expect(next.previous).toBe(first.id)
    expect(await store.changes(first.id, next.id)).toEqual([
      { path: 'README.md', change: 'changed' }
    ])
    expect((await store.latest())?.id).toBe(next.id)
  })
})
