// The descriptor walk under a checkpoint restore, one swap at a time: what the restore race test
// does in a tight loop, here at each step so every answer can be checked exactly.
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JailRefusal } from './jailed-dir'
import { JailedTree, TreeObstacle } from './jailed-tree'

let base: string
let root: string
let outside: string
let tree: JailedTree | null = null
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-tree-')))
  root = path.join(base, 'project')
  outside = path.join(base, 'outside')
  await mkdir(path.join(root, 'd'), { recursive: true })
  await mkdir(outside)
  await writeFile(path.join(outside, 'a.txt'), 'OUTSIDE\n')
})
afterEach(async () => {
  await tree?.close()
  tree = null
  await rm(base, { recursive: true, force: true })
})

async function openTree(): Promise<JailedTree> {
  tree = await JailedTree.open(root)
  return tree
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected it to be refused')
    },
    (error: unknown) => error
  )
}

async function obstacle(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await thrown(promise)
  if (!(error instanceof TreeObstacle)) throw new Error(`expected a TreeObstacle, got ${error}`)
  return [error.kind, error.at]
}

const outsideUntouched = async (): Promise<void> => {
  expect(await readdir(outside)).toEqual(['a.txt'])
  expect(await readFile(path.join(outside, 'a.txt'), 'utf8')).toBe('OUTSIDE\n')
}

describe('JailedTree puts', () => {
  it('writes a file with its mode, making missing folders through their parents', async () => {
    const t = await openTree()
    await t.putFile('new/deep/run.sh', Buffer.from('#!/bin/sh\n'), 0o777, false)
    await t.putFile('d/a.txt', Buffer.from('a\n'), 0o666, true)
    expect(await readFile(path.join(root, 'new/deep/run.sh'), 'utf8')).toBe('#!/bin/sh\n')
    expect((await stat(path.join(root, 'new/deep/run.sh'))).mode & 0o100).toBe(0o100)
    expect((await stat(path.join(root, 'd/a.txt'))).mode & 0o111).toBe(0)
    // No temporary file is left beside them.
    expect(await readdir(path.join(root, 'd'))).toEqual(['a.txt'])
  })

  it('replaces a link at the name itself, never writing through it', async () => {
    await symlink(path.join(outside, 'a.txt'), path.join(root, 'd', 'a.txt'))
    const t = await openTree()
    await t.putFile('d/a.txt', Buffer.from('inside\n'), 0o666, true)
    expect((await lstat(path.join(root, 'd/a.txt'))).isFile()).toBe(true)
    await t.putLink('d/l', Buffer.from('../elsewhere'), false)
    expect(await readlink(path.join(root, 'd/l'))).toBe('../elsewhere')
    await outsideUntouched()
  })

  it('refuses a link or a file where a folder of the path should be', async () => {
    await symlink(outside, path.join(root, 'out'))
    await writeFile(path.join(root, 'f'), 'a file\n')
    const t = await openTree()
    expect(await obstacle(t.putFile('out/a.txt', Buffer.from('x'), 0o666, true))).toEqual([
      'link',
      'out'
    ])
    expect(await obstacle(t.putLink('out/new', Buffer.from('x'), false))).toEqual(['link', 'out'])
    expect(await obstacle(t.putFile('f/a.txt', Buffer.from('x'), 0o666, false))).toEqual([
      'file',
      'f'
    ])
    await outsideUntouched()
  })

  it('brings a file back only where nothing is, and a folder in the way only when empty', async () => {
    await writeFile(path.join(root, 'd', 'made.txt'), 'made since\n')
    await mkdir(path.join(root, 'empty'))
    await mkdir(path.join(root, 'full'))
    await writeFile(path.join(root, 'full', 'x'), 'x\n')
    const t = await openTree()
    expect(await obstacle(t.putFile('d/made.txt', Buffer.from('old\n'), 0o666, false))).toEqual([
      'exists',
      'd/made.txt'
    ])
    expect(await readFile(path.join(root, 'd', 'made.txt'), 'utf8')).toBe('made since\n')
    await t.putFile('empty', Buffer.from('was a file\n'), 0o666, false)
    expect(await readFile(path.join(root, 'empty'), 'utf8')).toBe('was a file\n')
    expect(await obstacle(t.putFile('full', Buffer.from('x'), 0o666, true))).toEqual([
      'folder',
      'full'
    ])
    expect(await readdir(path.join(root, 'full'))).toEqual(['x'])
  })

  it('acts in the folder it opened, or refuses, once its name is swapped for a link', async () => {
    const t = await openTree()
    await t.putFile('d/first.txt', Buffer.from('1\n'), 0o666, true)
    // The folder is held open; its name now leads outside.
    await rename(path.join(root, 'd'), path.join(root, 'real'))
    await symlink(outside, path.join(root, 'd'))
    const refused = await thrown(t.putFile('d/a.txt', Buffer.from('x'), 0o666, true))
    expect(refused).toBeInstanceOf(JailRefusal)
    expect((refused as JailRefusal).path).toBe(path.join(root, 'd'))
    expect(await thrown(t.remove('d/first.txt'))).toBeInstanceOf(JailRefusal)
    expect(await readdir(path.join(root, 'real'))).toEqual(['first.txt'])
    await outsideUntouched()
    // A tree opened now sees the link, and refuses it.
    await tree?.close()
    const fresh = await openTree()
    expect(await obstacle(fresh.remove('d/a.txt'))).toEqual(['link', 'd'])
    await outsideUntouched()
  })
})

describe('JailedTree removals', () => {
  it('removes a file or a link itself, and says when nothing was there', async () => {
    await writeFile(path.join(root, 'd', 'f.txt'), 'f\n')
    await symlink(path.join(outside, 'a.txt'), path.join(root, 'd', 'l'))
    const t = await openTree()
    expect(await t.remove('d/f.txt')).toBe('removed')
    expect(await t.remove('d/l')).toBe('removed')
    expect(await t.remove('d/nothing')).toBe('gone')
    expect(await t.remove('nowhere/nothing')).toBe('gone')
    await writeFile(path.join(root, 'file'), 'a file\n')
    expect(await t.remove('file/nothing')).toBe('gone')
    await rm(path.join(root, 'file'))
    expect(await readdir(path.join(root, 'd'))).toEqual([])
    await outsideUntouched()
  })

  it('never removes through a link, nor a folder at the name', async () => {
    await symlink(outside, path.join(root, 'out'))
    await mkdir(path.join(root, 'd', 'sub'))
    const t = await openTree()
    expect(await obstacle(t.remove('out/a.txt'))).toEqual(['link', 'out'])
    expect(await obstacle(t.remove('d/sub'))).toEqual(['folder', 'd/sub'])
    await outsideUntouched()
  })

  it('removes the folders left empty, up to but never the root', async () => {
    await mkdir(path.join(root, 'a', 'b', 'c'), { recursive: true })
    await writeFile(path.join(root, 'a', 'keep.txt'), 'keep\n')
    await writeFile(path.join(root, 'a', 'b', 'c', 'x.txt'), 'x\n')
    const t = await openTree()
    await t.remove('a/b/c/x.txt')
    await t.pruneEmpty('a/b/c')
    expect(await readdir(path.join(root, 'a'))).toEqual(['keep.txt'])
    await t.remove('a/keep.txt')
    await t.pruneEmpty('a')
    expect(await readdir(root)).toEqual(['d'])
    // A folder made again after it was pruned is walked afresh.
    await t.putFile('a/b/new.txt', Buffer.from('new\n'), 0o666, false)
    expect(await readFile(path.join(root, 'a/b/new.txt'), 'utf8')).toBe('new\n')
    await rm(path.join(root, 'd'), { recursive: true })
    await rm(path.join(root, 'a'), { recursive: true })
    await t.pruneEmpty('a')
    await expect(stat(root)).resolves.toBeTruthy()
  })

  it('is refused for a folder that is gone, which it never makes again', async () => {
    await rm(root, { recursive: true })
    const refused = await thrown(JailedTree.open(root))
    expect(refused).toBeInstanceOf(JailRefusal)
    expect((refused as JailRefusal).kind).toBe('root-gone')
    await expect(stat(root)).rejects.toThrow(/ENOENT/)
  })
})
