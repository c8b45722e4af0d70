// Attacks on the shadow store through names and links: file names that git would read as options,
// patterns or pathspec magic, look-alike unicode, symlinks out of the folder, and `files` naming
// places outside it. Each is taken, changed and restored exactly, and nothing outside is touched.
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { lstatSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkpointFolder, fingerprint, storedFiles } from '../../../testing/checkpoint-folder'

/** Names a restore of one of them could mistake for others (a.txt, b.txt, x.txt, the NFC é). */
const TRICKY = [
  'with space.txt',
  'new\nline.txt',
  '-rf',
  '--force',
  ':(exclude)a.txt',
  ':!b.txt',
  ':/x.txt',
  '*.txt',
  '?.txt',
  '[ab].txt',
  'back\\slash.txt',
  'é.txt'.normalize('NFD'),
  '#hash.txt',
  '!bang.txt',
  'dir with space/[x]/file*.txt'
]
const PLAIN = ['a.txt', 'b.txt', 'x.txt', 'é.txt'.normalize('NFC')]
const ALL = [...TRICKY, ...PLAIN]

const sorted = (names: readonly string[]): string[] => [...names].sort()

describe('file names git could misread', () => {
  it('are taken, changed and restored exactly, alone or all together', async () => {
    const { workspace, store, write, read } = await checkpointFolder()
    const version = async (v: string, names = ALL): Promise<void> => {
      for (const name of names) await write(name, `${v} ${JSON.stringify(name)}\n`)
    }
    const expectVersion = async (v: string, names: readonly string[]): Promise<void> => {
      for (const name of names)
        expect(await read(name), name).toBe(`${v} ${JSON.stringify(name)}\n`)
    }
    await version('v1')
    const first = await store.take('first')
    expect(storedFiles(store, first.id)).toEqual(sorted([...ALL, 'README.md', 'src/a.txt']))
    await version('v2')
    const second = await store.take('second')
    const changed = await store.changes(first.id, second.id)
    expect(sorted(changed.map((c) => c.path))).toEqual(sorted(ALL))
    expect(changed.every((c) => c.change === 'changed')).toBe(true)

    // Only the tricky ones: the plain files they look like stay as they are.
    const some = await store.restore(first.id, TRICKY)
    expect(sorted(some.changes.map((c) => c.path))).toEqual(sorted(TRICKY))
    await expectVersion('v1', TRICKY)
    await expectVersion('v2', PLAIN)
    // One at a time, each alone.
    await version('v2')
    for (const name of TRICKY) {
      await store.restore(first.id, [name])
      await expectVersion('v1', [name])
      await expectVersion(
        'v2',
        ALL.filter((other) => other !== name)
      )
      await version('v2', [name])
    }
    // Deleted ones come back and created ones go, by name.
    for (const name of TRICKY) await rm(path.join(workspace, name))
    await write('[new].txt', 'created\n')
    await write('new.txt', 'created, plain\n')
    await store.take('deleted and created')
    await store.restore(second.id, [...TRICKY, '[new].txt'])
    await expectVersion('v2', TRICKY)
    expect(await read('[new].txt')).toBeNull()
    expect(await read('new.txt')).toBe('created, plain\n')

    const all = await store.restore(first.id)
    await expectVersion('v1', ALL)
    expect(await read('new.txt')).toBeNull()
    await store.restore(all.undo.id)
    await expectVersion('v2', ALL)
    expect(await read('new.txt')).toBe('created, plain\n')
    // A file's bytes at a checkpoint, by its exact name.
    for (const name of ALL) {
      expect((await store.fileAt(first.id, name))?.toString()).toBe(`v1 ${JSON.stringify(name)}\n`)
    }
  })

  it('leaving out a big file named like a pattern or magic leaves the others stored', async () => {
    const { store, write } = await checkpointFolder({ maxFileBytes: 1000 })
    for (const name of PLAIN) await write(name, `${name}\n`)
    const big = [':(exclude)big', ':!nothing', '*', '*.txt', '[ab].txt', '-rf']
    for (const name of big) await write(name, 'x'.repeat(5000))
    const taken = await store.take('big ones')
    expect(sorted(taken.notCovered.map((n) => n.path))).toEqual(sorted(big))
    expect(storedFiles(store, taken.id)).toEqual(sorted([...PLAIN, 'README.md', 'src/a.txt']))
    // Still out, and the rest still in, once they are known as left out.
    await write('README.md', 'changed\n')
    const next = await store.take('again')
    expect(storedFiles(store, next.id)).toEqual(sorted([...PLAIN, 'README.md', 'src/a.txt']))
  })
})

describe('links and paths out of the folder', () => {
  it('never writes through a symlink to a file outside the folder', async () => {
    const f = await checkpointFolder()
    const outside = path.join(f.dir, 'outside')
    await mkdir(outside)
    await writeFile(path.join(outside, 'secret.txt'), 'outside\n')
    await writeFile(path.join(outside, 'a.txt'), 'outside a\n')
    await writeFile(path.join(outside, 'big.txt'), 'z'.repeat(6 * 1024 * 1024))
    const untouched = fingerprint(outside)
    await f.write('link.txt', 'inside\n')
    await f.write('dir/a.txt', 'v1\n')
    const first = await f.store.take('first')

    // The agent swaps a file and a folder for links out of the folder, and adds two more.
    await rm(path.join(f.workspace, 'link.txt'))
    await symlink(path.join(outside, 'secret.txt'), path.join(f.workspace, 'link.txt'))
    await rm(path.join(f.workspace, 'dir'), { recursive: true })
    await symlink(outside, path.join(f.workspace, 'dir'))
    await symlink(path.join(outside, 'big.txt'), path.join(f.workspace, 'big-link'))
    await symlink(outside, path.join(f.workspace, 'escape'))
    const second = await f.store.take('links')
    // A link is stored as a link (its target's size is not its own).
    expect(second.notCovered).toEqual([])
    expect(storedFiles(f.store, second.id)).toEqual(
      sorted(['README.md', 'big-link', 'dir', 'escape', 'link.txt', 'src/a.txt'])
    )

    // The link standing for the folder is neither followed nor replaced unasked: the file under
    // it is left, with why and what to do.
    const some = await f.store.restore(first.id, ['dir/a.txt', 'link.txt'])
    expect(fingerprint(outside)).toEqual(untouched)
    expect(await f.read('link.txt')).toBe('inside\n')
    expect(lstatSync(path.join(f.workspace, 'link.txt')).isSymbolicLink()).toBe(false)
    expect(some.changes).toEqual([{ path: 'link.txt', change: 'changed' }])
    expect(some.notRestored).toEqual([
      {
        path: 'dir/a.txt',
        why: expect.stringMatching(/`dir` is a link now.*restore `dir` as well/)
      }
    ])
    expect(lstatSync(path.join(f.workspace, 'dir')).isSymbolicLink()).toBe(true)
    // Restored with it, the link goes and the folder comes back.
    const both = await f.store.restore(first.id, ['dir', 'dir/a.txt'])
    expect(both.notRestored).toEqual([])
    expect(fingerprint(outside)).toEqual(untouched)
    expect(await f.read('dir/a.txt')).toBe('v1\n')
    expect(lstatSync(path.join(f.workspace, 'dir')).isSymbolicLink()).toBe(false)

    const back = await f.store.restore(second.id)
    expect(lstatSync(path.join(f.workspace, 'dir')).isSymbolicLink()).toBe(true)
    await f.store.restore(first.id)
    expect(fingerprint(outside)).toEqual(untouched)
    expect(await f.read('escape')).toBeNull()
    expect(await f.read('big-link')).toBeNull()
    await f.store.restore(back.undo.id)
    expect(fingerprint(outside)).toEqual(untouched)
  })

  it('a files entry outside the folder touches nothing outside it', async () => {
    const f = await checkpointFolder()
    const outside = path.join(f.dir, 'outside')
    await mkdir(outside)
    await writeFile(path.join(outside, 'secret.txt'), 'outside\n')
    const untouched = fingerprint(outside)
    const first = await f.store.take('first')
    await f.write('README.md', 'changed\n')
    await f.store.take('second')
    const files = [
      '../outside/secret.txt',
      'src/../../outside/secret.txt',
      path.join(outside, 'secret.txt'),
      '/etc/passwd',
      '..',
      '/'
    ]
    expect((await f.store.plan(first.id, files)).changes).toEqual([])
    expect((await f.store.restore(first.id, files)).changes).toEqual([])
    expect(fingerprint(outside)).toEqual(untouched)
    expect(await f.read('README.md')).toBe('changed\n')
    for (const file of files) {
      const bytes = await f.store.fileAt(first.id, file).catch(() => null)
      expect(bytes, file).toBeNull()
    }
  })
})
