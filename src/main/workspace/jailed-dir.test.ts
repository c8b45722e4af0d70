// The descriptor walk under the file tools, one swap at a time: what the race test does in a
// tight loop, here at each step so every answer can be checked exactly.
import { constants } from 'node:fs'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
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
import { JailedDir, JailRefusal, type DirWalk } from './jailed-dir'

let base: string
let root: string
let outside: string
const opened: JailedDir[] = []
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-jailed-')))
  root = path.join(base, 'project')
  outside = path.join(base, 'outside')
  await mkdir(path.join(root, 'd'), { recursive: true })
  await mkdir(outside)
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((dir) => dir.close()))
  await rm(base, { recursive: true, force: true })
})

function open(walk: DirWalk): JailedDir {
  if (walk.kind !== 'open') throw new Error(`expected an open directory, got ${walk.kind}`)
  opened.push(walk.dir)
  return walk.dir
}

async function refusal(promise: Promise<unknown>): Promise<JailRefusal> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e
  )
  if (!(error instanceof JailRefusal)) throw new Error(`expected a JailRefusal, got ${error}`)
  return error
}

describe('JailedDir.walk', () => {
  it('opens a directory below the root and knows where it is', async () => {
    const dir = open(await JailedDir.walk(root, ['d'], false))
    expect(dir.path).toBe(path.join(root, 'd'))
    await expect(dir.verify()).resolves.toBeUndefined()
  })

  it('refuses a component that is a link now, even one that stays inside', async () => {
    await symlink(outside, path.join(root, 'out'))
    await symlink(path.join(root, 'd'), path.join(root, 'in'))
    for (const name of ['out', 'in']) {
      const refused = await refusal(JailedDir.walk(root, [name, 'x'], true))
      expect([refused.kind, refused.path]).toEqual(['changed', path.join(root, name)])
    }
    expect(await readdir(outside)).toEqual([])
  })

  it('tells a missing directory from one below a file', async () => {
    await writeFile(path.join(root, 'f'), '')
    expect((await JailedDir.walk(root, ['nope', 'x'], false)).kind).toBe('missing')
    expect((await JailedDir.walk(root, ['f', 'x'], false)).kind).toBe('under-file')
    expect((await JailedDir.walk(root, ['f', 'x'], true)).kind).toBe('under-file')
  })

  it('creates missing directories one at a time, but never the root', async () => {
    const dir = open(await JailedDir.walk(root, ['a', 'b', 'c'], true))
    expect(dir.path).toBe(path.join(root, 'a', 'b', 'c'))
    expect((await stat(path.join(root, 'a', 'b', 'c'))).isDirectory()).toBe(true)
    await rm(root, { recursive: true })
    const refused = await refusal(JailedDir.walk(root, ['a'], true))
    expect([refused.kind, refused.path]).toEqual(['root-gone', root])
    await expect(stat(root)).rejects.toThrow(/ENOENT/)
  })

  it('refuses a root that is a link to somewhere else now', async () => {
    await rename(root, path.join(base, 'moved'))
    await symlink(path.join(base, 'moved'), root)
    expect((await refusal(JailedDir.walk(root, [], false))).kind).toBe('changed')
  })
})

describe('an open JailedDir', () => {
  it('acts on the directory it opened after its name was swapped for a link', async () => {
    const dir = open(await JailedDir.walk(root, ['d'], false))
    await rename(path.join(root, 'd'), path.join(root, 'real'))
    await symlink(outside, path.join(root, 'd'))

    const handle = await dir.openFile('new.txt', constants.O_WRONLY | constants.O_CREAT, 0o644)
    await handle.writeFile('inside')
    await handle.close()
    await dir.mkdir('sub')
    expect((await readdir(path.join(root, 'real'))).sort()).toEqual(['new.txt', 'sub'])
    expect(await readFile(path.join(root, 'real', 'new.txt'), 'utf8')).toBe('inside')
    expect(await readdir(outside)).toEqual([])
    // It is not where it was checked any more: what would be reported is refused.
    expect((await refusal(dir.verify())).kind).toBe('changed')
  })

  it('never opens a file through a link at its name', async () => {
    await writeFile(path.join(outside, 'secret.txt'), 'secret')
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'd', 'x'))
    const dir = open(await JailedDir.walk(root, ['d'], false))
    const refused = await refusal(dir.openFile('x', constants.O_RDONLY))
    expect([refused.kind, refused.path]).toEqual(['changed', path.join(root, 'd', 'x')])
    await expect(dir.openDir('x')).rejects.toBeInstanceOf(JailRefusal)
  })

  it('moves a link itself, and lists and removes through its descriptor', async () => {
    await symlink(outside, path.join(root, 'd', 'link'))
    const dir = open(await JailedDir.walk(root, ['d'], false))
    const top = open(await JailedDir.walk(root, [], false))
    await dir.link('link', top, 'moved')
    await dir.unlink('link')
    expect(await top.readlink('moved')).toBe(outside)
    expect((await top.readdir()).map((e) => e.name).sort()).toEqual(['d', 'moved'])
    await top.rename('moved', dir, 'back')
    expect((await dir.lstat('back'))?.isSymbolicLink()).toBe(true)
    await expect(dir.rmdir('back')).rejects.toThrow(/ENOTDIR/)
    expect(await readdir(outside)).toEqual([])
  })

  it('takes single names only', () => {
    return JailedDir.walk(root, ['d'], false).then((walk) => {
      const dir = open(walk)
      for (const name of ['', '.', '..', 'a/b', 'a\0']) expect(() => dir.entry(name)).toThrow()
    })
  })
})
