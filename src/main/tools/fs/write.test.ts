import {
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  stat,
  symlink,
  writeFile
} from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readTool } from './read'
import {
  createTestWorkspace,
  plantEscapes,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'
import { makeFifo } from '../../../../testing/fifo'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const at = (...parts: string[]): string => path.join(ws.root, ...parts)

describe('Write', () => {
  it('creates a file and its missing parent directories', async () => {
    const out = await ws.run(writeTool, { path: 'a/b/c.txt', content: 'one\ntwo\n' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('Created `a/b/c.txt` (2 lines, 8 bytes)')
    expect(await readFile(at('a', 'b', 'c.txt'), 'utf8')).toBe('one\ntwo\n')
  })

  it('creates an empty file', async () => {
    expect(textOf(await ws.run(writeTool, { path: 'e', content: '' }))).toBe(
      'Created `e` (0 lines, 0 bytes)'
    )
    expect(await readFile(at('e'), 'utf8')).toBe('')
  })

  it('may replace a file it created without reading it again', async () => {
    await ws.run(writeTool, { path: 'x', content: 'first' })
    const out = await ws.run(writeTool, { path: 'x', content: 'second' })
    expect(textOf(out)).toBe('Replaced `x` (1 line, 6 bytes)')
    expect(await readFile(at('x'), 'utf8')).toBe('second')
  })

  it('replaces a file this session has read, keeping its permission bits', async () => {
    await writeFile(at('run.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 })
    await ws.run(readTool, { path: 'run.sh' })
    const out = await ws.run(writeTool, { path: 'run.sh', content: '#!/bin/sh\necho new\n' })
    expect(textOf(out)).toBe('Replaced `run.sh` (2 lines, 19 bytes)')
    expect(await readFile(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n')
    expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o755)
    expect(await readdir(ws.root)).toEqual(['run.sh'])
  })

  it('replaces the target of a link inside the folder and keeps the link', async () => {
    await writeFile(at('real.txt'), 'old')
    await symlink('real.txt', at('alias.txt'))
    await ws.run(readTool, { path: 'alias.txt' })
    const out = await ws.run(writeTool, { path: 'alias.txt', content: 'new' })
    expect(textOf(out)).toBe('Replaced `alias.txt` (1 line, 3 bytes)')
    expect(await readFile(at('real.txt'), 'utf8')).toBe('new')
    expect(await readlink(at('alias.txt'))).toBe('real.txt')
  })

  describe('refuses', () => {
    it('to replace a file this session has not read, leaving it as it was', async () => {
      await writeFile(at('x'), 'theirs')
      const out = await ws.run(writeTool, { path: 'x', content: 'mine' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x` already exists and this session has not read it; Read it first, then Write'
      )
      expect(await readFile(at('x'), 'utf8')).toBe('theirs')
    })

    it('to replace a file that changed since it was read', async () => {
      await writeFile(at('x'), 'v1')
      await ws.run(readTool, { path: 'x' })
      await writeFile(at('x'), 'v2 by someone else')
      const out = await ws.run(writeTool, { path: 'x', content: 'mine' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x` has changed since this session read it; Read it again and re-apply your change'
      )
      expect(await readFile(at('x'), 'utf8')).toBe('v2 by someone else')
    })

    it('to write onto a directory', async () => {
      await mkdir(at('src'))
      const out = await ws.run(writeTool, { path: 'src', content: 'x' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`src` is a directory; Write needs the path of a file')
      expect((await stat(at('src'))).isDirectory()).toBe(true)
    })

    it('to create a file below a file', async () => {
      await writeFile(at('x.txt'), 'x')
      const out = await ws.run(writeTool, { path: 'x.txt/y.txt', content: 'y' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        'cannot create `x.txt/y.txt`: part of its path is a file, not a directory; check the path with ListDir'
      )
      expect(await readFile(at('x.txt'), 'utf8')).toBe('x')
    })

    it('to replace a read-only file, which keeps its content, mode and inode', async () => {
      await writeFile(at('locked.txt'), 'keep\n', { mode: 0o444 })
      const before = await stat(at('locked.txt'))
      await ws.run(readTool, { path: 'locked.txt' })
      const out = await ws.run(writeTool, { path: 'locked.txt', content: 'mine\n' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`locked.txt` is read-only (mode 444), so Write did not replace it; if it should change, make it writable first (for example `chmod u+w`), or leave it as it is'
      )
      const after = await stat(at('locked.txt'))
      expect(await readFile(at('locked.txt'), 'utf8')).toBe('keep\n')
      expect([after.ino, after.mode & 0o777]).toEqual([before.ino, 0o444])
      expect(await readdir(ws.root)).toEqual(['locked.txt'])
    })

    it('to write into a FIFO', async () => {
      makeFifo(at('pipe'))
      const out = await ws.run(writeTool, { path: 'pipe', content: 'x' })
      expect(textOf(out)).toBe(
        '`pipe` is not a regular file (a device, socket or FIFO); Write only replaces regular files'
      )
    })
  })

  describe('stays inside the project folder', () => {
    it('refuses every way out, and neither changes nor creates anything outside', async () => {
      const escapes = await plantEscapes(ws)
      // Even a session that has read the outside file must not get through.
      ws.ctx.reads.record(escapes.secretFile, await readFile(escapes.secretFile))
      for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toMissing })) {
        const out = await ws.run(writeTool, { path: requested, content: 'pwned\n' })
        expect(out.isError, how).toBe(true)
        expect(textOf(out), how).toContain('is outside the project folder')
      }
      expect(await readFile(escapes.secretFile, 'utf8')).toBe('secret\n')
      expect(await readdir(ws.outside)).toEqual(['secret.txt'])
      expect((await lstat(at('dangling-out'))).isSymbolicLink()).toBe(true)
      expect(await readdir(ws.root)).not.toContain('sub')
    })
  })
})
