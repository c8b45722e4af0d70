// Opening the files ripgrep found: only a regular file really at its path is opened, so a path
// through a link (as ripgrep reaches one when a directory is swapped for a link mid-walk) is
// left out. Both ways are tested here: by descriptor path (Linux) and through JailedDir (the
// way elsewhere, which also runs on Linux).
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  openByDirectory,
  openByFdPath,
  openThroughJail,
  type OpenedFile
} from './open-through-jail'
import { makeFifo } from '../../../../../testing/fifo'

let base: string
let root: string

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-open-')))
  root = path.join(base, 'project')
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true })
  await mkdir(path.join(base, 'outside'))
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'OUTSIDE\n')
  await writeFile(path.join(root, 'top.txt'), 'top\n')
  await writeFile(path.join(root, 'src', 'deep', 'a.txt'), 'inside\n')
  await symlink(path.join(base, 'outside'), path.join(root, 'out'))
  await symlink('src', path.join(root, 'alias'))
  await symlink('top.txt', path.join(root, 'file-link.txt'))
  makeFifo(path.join(root, 'pipe'))
})

afterAll(async () => {
  await rm(base, { recursive: true, force: true })
})

const contentOf = (file: OpenedFile): string => readFileSync(file.fd, 'utf8')

describe.each([
  ['openThroughJail', openThroughJail],
  ['by descriptor path', openByFdPath],
  ['through JailedDir', openByDirectory]
])('opening found files %s', (_name, open) => {
  it('opens regular files at their paths and leaves out links, FIFOs and missing files', async () => {
    const opened = await open(root, [
      'top.txt',
      'src/deep/a.txt',
      'out/secret.txt',
      'alias/deep/a.txt',
      'file-link.txt',
      'pipe',
      'src/missing.txt',
      'top.txt/under'
    ])
    try {
      expect(opened.map((file) => [file.relative, contentOf(file)])).toEqual([
        ['top.txt', 'top\n'],
        ['src/deep/a.txt', 'inside\n']
      ])
    } finally {
      await Promise.all(opened.map((file) => file.close()))
    }
  })
})
