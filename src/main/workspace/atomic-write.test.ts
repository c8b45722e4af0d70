import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from './atomic-write'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-atomic-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('creates a file and leaves no temporary file behind', async () => {
    const file = path.join(dir, 'a.txt')
    await writeFileAtomic(file, 'hello')
    expect(await readFile(file, 'utf8')).toBe('hello')
    expect(await readdir(dir)).toEqual(['a.txt'])
  })

  it('replaces a file, keeping permission bits the umask would have cleared', async () => {
    const file = path.join(dir, 'shared.txt')
    await writeFile(file, 'old')
    await chmod(file, 0o666)
    await writeFileAtomic(file, 'new')
    expect(await readFile(file, 'utf8')).toBe('new')
    expect((await stat(file)).mode & 0o7777).toBe(0o666)
  })

  it('writes a file whose name is as long as the filesystem allows', async () => {
    const file = path.join(dir, 'n'.repeat(255))
    await writeFileAtomic(file, 'long')
    expect(await readFile(file, 'utf8')).toBe('long')
    expect(await readdir(dir)).toEqual(['n'.repeat(255)])
  })

  it('leaves the old file whole and cleans up when the write fails', async () => {
    const file = path.join(dir, 'a.txt')
    await writeFile(file, 'old')
    await expect(writeFileAtomic(path.join(dir, 'missing', 'b.txt'), 'x')).rejects.toThrow()
    expect(await readFile(file, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['a.txt'])
  })
})
