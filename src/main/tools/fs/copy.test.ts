import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyTool } from './copy'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { makeFifo } from '../../../../testing/fifo'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const at = (...parts: string[]): string => path.join(ws.root, ...parts)

describe('Copy', () => {
  it('copies a file to a new path, creating missing parent directories', async () => {
    await writeFile(at('a.txt'), 'alpha\n')
    const out = await ws.run(copyTool, { source: 'a.txt', destination: 'x/y/b.txt' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('Copied `a.txt` to `x/y/b.txt` (6 bytes)')
    expect(await readFile(at('x', 'y', 'b.txt'), 'utf8')).toBe('alpha\n')
    expect(await readFile(at('a.txt'), 'utf8')).toBe('alpha\n')
  })

  it('copies what a link inside the folder points to', async () => {
    await writeFile(at('real.txt'), 'real\n')
    await symlink('real.txt', at('alias.txt'))
    expect(textOf(await ws.run(copyTool, { source: 'alias.txt', destination: 'c.txt' }))).toBe(
      'Copied `alias.txt` to `c.txt` (5 bytes)'
    )
    expect(await readFile(at('c.txt'), 'utf8')).toBe('real\n')
  })

  describe('refuses', () => {
    it('a missing source', async () => {
      const out = await ws.run(copyTool, { source: 'nope.txt', destination: 'b.txt' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`nope.txt` does not exist; check the name with ListDir')
    })

    it('a directory', async () => {
      await mkdir(at('src'))
      const out = await ws.run(copyTool, { source: 'src', destination: 'src2' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`src` is a directory; Copy copies one file, so copy its files one by one'
      )
      expect(await readdir(ws.root)).toEqual(['src'])
    })

    it('a FIFO', async () => {
      makeFifo(at('pipe'))
      const out = await ws.run(copyTool, { source: 'pipe', destination: 'p2' })
      expect(textOf(out)).toBe(
        '`pipe` is not a regular file (a device, socket or FIFO); Copy copies regular files'
      )
    })

    it('an existing destination file, leaving it as it was', async () => {
      await writeFile(at('a.txt'), 'new\n')
      await writeFile(at('b.txt'), 'precious\n')
      const out = await ws.run(copyTool, { source: 'a.txt', destination: 'b.txt' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`b.txt` already exists and Copy never replaces anything; choose a name that does not exist, or Remove `b.txt` first'
      )
      expect(await readFile(at('b.txt'), 'utf8')).toBe('precious\n')
    })

    it('a file onto itself', async () => {
      await writeFile(at('a.txt'), 'a\n')
      const out = await ws.run(copyTool, { source: 'a.txt', destination: './a.txt' })
      expect(textOf(out)).toContain('`a.txt` already exists')
    })

    it('an existing destination directory, saying how to copy into it', async () => {
      await writeFile(at('a.txt'), 'a\n')
      await mkdir(at('docs'))
      const out = await ws.run(copyTool, { source: 'a.txt', destination: 'docs' })
      expect(textOf(out)).toBe(
        '`docs` already exists and Copy never replaces anything; to put something into the directory `docs`, give its full new path (`docs/<name>`)'
      )
      expect(await readdir(at('docs'))).toEqual([])
    })

    it('a destination that is a dangling link', async () => {
      await writeFile(at('a.txt'), 'a\n')
      await symlink('missing.txt', at('dangling'))
      const out = await ws.run(copyTool, { source: 'a.txt', destination: 'dangling' })
      expect(textOf(out)).toContain('`dangling` already exists')
      expect(await readdir(ws.root)).toEqual(['a.txt', 'dangling'])
    })

    it('a destination below a file', async () => {
      await writeFile(at('a.txt'), 'a\n')
      const out = await ws.run(copyTool, { source: 'a.txt', destination: 'a.txt/b' })
      expect(textOf(out)).toBe(
        'cannot create `a.txt/b`: part of its path is a file, not a directory; check the path with ListDir'
      )
    })
  })
})
