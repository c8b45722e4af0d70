import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PathJail, type JailResult } from './path-jail'

let base: string
let root: string
let outside: string
let jail: PathJail

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-jail-')))
  root = path.join(base, 'project')
  outside = path.join(base, 'outside')
  await mkdir(path.join(root, 'src'), { recursive: true })
  await mkdir(outside)
  await writeFile(path.join(root, 'src', 'a.ts'), '')
  await writeFile(path.join(outside, 'secret.txt'), 'secret')
  jail = new PathJail(root)
})
afterEach(async () => {
  await rm(base, { recursive: true, force: true })
})

function expectInside(result: JailResult, expected: string): void {
  expect(result).toMatchObject({ ok: true, path: expected })
}

function expectRefused(result: JailResult, requested: string): void {
  expect(result.ok).toBe(false)
  if (!result.ok) {
    expect(result.message).toBe(
      `\`${requested}\` is outside the project folder (${root}); only paths inside it can be used`
    )
  }
}

describe('PathJail.resolve', () => {
  it('resolves relative and absolute paths inside the folder to their real path', async () => {
    expectInside(await jail.resolve('src/a.ts'), path.join(root, 'src', 'a.ts'))
    expectInside(await jail.resolve('./src/../src/a.ts'), path.join(root, 'src', 'a.ts'))
    expectInside(await jail.resolve(path.join(root, 'src')), path.join(root, 'src'))
    expectInside(await jail.resolve('.'), root)
  })

  it('resolves paths that do not exist yet, below missing directories', async () => {
    expectInside(await jail.resolve('new/dir/file.txt'), path.join(root, 'new', 'dir', 'file.txt'))
  })

  it('canonicalises the root itself, so a root given through a link still contains its files', async () => {
    await symlink(root, path.join(base, 'root-link'))
    const linked = new PathJail(path.join(base, 'root-link'))
    expect(linked.root).toBe(root)
    expectInside(await linked.resolve('src/a.ts'), path.join(root, 'src', 'a.ts'))
  })

  it('follows links that stay inside to their target', async () => {
    await symlink('src/a.ts', path.join(root, 'alias.ts'))
    await symlink('src', path.join(root, 'code'))
    expectInside(await jail.resolve('alias.ts'), path.join(root, 'src', 'a.ts'))
    expectInside(await jail.resolve('code/a.ts'), path.join(root, 'src', 'a.ts'))
    expectInside(await jail.resolve('code/new.ts'), path.join(root, 'src', 'new.ts'))
  })

  it('refuses `..` out of the folder, even through a subdirectory', async () => {
    expectRefused(await jail.resolve('..'), '..')
    expectRefused(await jail.resolve('../outside/secret.txt'), '../outside/secret.txt')
    expectRefused(await jail.resolve('src/../../outside'), 'src/../../outside')
  })

  it('refuses absolute paths outside, including a sibling whose name starts like the root', async () => {
    await mkdir(`${root}-evil`)
    expectRefused(await jail.resolve('/'), '/')
    expectRefused(await jail.resolve(outside), outside)
    expectRefused(await jail.resolve(`${root}-evil/x`), `${root}-evil/x`)
  })

  it('refuses a link to a file outside, direct or relative', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'abs'))
    await symlink('../outside/secret.txt', path.join(root, 'rel'))
    expectRefused(await jail.resolve('abs'), 'abs')
    expectRefused(await jail.resolve('rel'), 'rel')
  })

  it('refuses a path below a link to a directory outside', async () => {
    await symlink(outside, path.join(root, 'out'))
    expectRefused(await jail.resolve('out'), 'out')
    expectRefused(await jail.resolve('out/secret.txt'), 'out/secret.txt')
    expectRefused(await jail.resolve('out/new/deeper.txt'), 'out/new/deeper.txt')
  })

  it('refuses a dangling link whose target would be created outside', async () => {
    await symlink(path.join(outside, 'new.txt'), path.join(root, 'dangling'))
    expectRefused(await jail.resolve('dangling'), 'dangling')
  })

  it('refuses a chain of links that ends outside, existing or dangling', async () => {
    await symlink('hop-2', path.join(root, 'hop-1'))
    await symlink(path.join(root, 'src', 'hop-3'), path.join(root, 'hop-2'))
    await symlink('../../outside/secret.txt', path.join(root, 'src', 'hop-3'))
    await symlink('d-2', path.join(root, 'd-1'))
    await symlink('../outside/later/new.txt', path.join(root, 'd-2'))
    expectRefused(await jail.resolve('hop-1'), 'hop-1')
    expectRefused(await jail.resolve('d-1'), 'd-1')
  })

  it('follows a dangling link from the directory it really lives in, as the system would', async () => {
    // `deep/er/up` leads back to the root, so `../outside` from the dangling link `back` means
    // the sibling folder, not something under `deep/`.
    await mkdir(path.join(root, 'deep', 'er'), { recursive: true })
    await symlink(root, path.join(root, 'deep', 'er', 'up'))
    await symlink('../outside/new.txt', path.join(root, 'back'))
    expectRefused(await jail.resolve('deep/er/up/back'), 'deep/er/up/back')

    await symlink('src/made-later.ts', path.join(root, 'later'))
    expectInside(await jail.resolve('deep/er/up/later'), path.join(root, 'src', 'made-later.ts'))
  })

  it('resolves a new file below more missing directories than the link limit', async () => {
    const deep = Array.from({ length: 60 }, (_, i) => `d${i}`).join('/')
    expectInside(await jail.resolve(`${deep}/f.txt`), path.join(root, deep, 'f.txt'))
  })

  it('refuses a link loop with a message instead of hanging', async () => {
    await symlink('loop-b', path.join(root, 'loop-a'))
    await symlink('loop-a', path.join(root, 'loop-b'))
    const result = await jail.resolve('loop-a')
    expect(result).toEqual({
      ok: false,
      message: 'cannot resolve `loop-a`: too many levels of symbolic links'
    })
  })

  it('refuses a path with a NUL byte', async () => {
    const result = await jail.resolve('a\0b')
    expect(result).toEqual({ ok: false, message: 'the path "a\\u0000b" contains a NUL byte' })
  })

  it('contains everything when the root is the filesystem root', async () => {
    const everything = new PathJail('/')
    expectInside(await everything.resolve(outside), outside)
    expect(everything.contains(path.join(outside, 'secret.txt'))).toBe(true)
  })
})

describe('PathJail.display', () => {
  it('shows paths relative to the folder with forward slashes', () => {
    expect(jail.display(root)).toBe('.')
    expect(jail.display(path.join(root, 'src', 'a.ts'))).toBe('src/a.ts')
  })
})
