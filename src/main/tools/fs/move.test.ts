import { lstat, mkdir, readFile, readdir, readlink, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { moveTool } from './move'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const at = (...parts: string[]): string => path.join(ws.root, ...parts)

describe('Move', () => {
  it('renames a file, creating missing parent directories', async () => {
    await writeFile(at('a.txt'), 'alpha\n')
    const out = await ws.run(moveTool, { source: 'a.txt', destination: 'docs/b.txt' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('Moved `a.txt` to `docs/b.txt`')
    expect(await readFile(at('docs', 'b.txt'), 'utf8')).toBe('alpha\n')
    expect(await readdir(ws.root)).toEqual(['docs'])
  })

  it('moves a directory with everything in it', async () => {
    await mkdir(at('src', 'lib'), { recursive: true })
    await writeFile(at('src', 'lib', 'x.ts'), 'x')
    expect(textOf(await ws.run(moveTool, { source: 'src', destination: 'app' }))).toBe(
      'Moved `src` to `app`'
    )
    expect(await readFile(at('app', 'lib', 'x.ts'), 'utf8')).toBe('x')
    expect(await readdir(ws.root)).toEqual(['app'])
  })

  it('moves a symbolic link itself, not what it points to', async () => {
    await writeFile(at('real.txt'), 'real\n')
    await symlink('real.txt', at('alias.txt'))
    await ws.run(moveTool, { source: 'alias.txt', destination: 'alias2.txt' })
    expect(await readlink(at('alias2.txt'))).toBe('real.txt')
    expect(await readFile(at('real.txt'), 'utf8')).toBe('real\n')
    expect((await readdir(ws.root)).sort()).toEqual(['alias2.txt', 'real.txt'])
  })

  describe('refuses', () => {
    it('a missing source', async () => {
      const out = await ws.run(moveTool, { source: 'nope', destination: 'b' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`nope` does not exist; check the name with ListDir')
    })

    it('an existing destination, leaving both as they were', async () => {
      await writeFile(at('a.txt'), 'a\n')
      await writeFile(at('b.txt'), 'b\n')
      const out = await ws.run(moveTool, { source: 'a.txt', destination: 'b.txt' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`b.txt` already exists and Move never replaces anything; choose a name that does not exist, or Remove `b.txt` first'
      )
      expect(await readFile(at('a.txt'), 'utf8')).toBe('a\n')
      expect(await readFile(at('b.txt'), 'utf8')).toBe('b\n')
    })

    it('an existing empty directory as destination, which rename() would replace', async () => {
      await mkdir(at('a'))
      await mkdir(at('b'))
      const out = await ws.run(moveTool, { source: 'a', destination: 'b' })
      expect(textOf(out)).toBe(
        '`b` already exists and Move never replaces anything; to put something into the directory `b`, give its full new path (`b/<name>`)'
      )
      expect((await readdir(ws.root)).sort()).toEqual(['a', 'b'])
    })

    it('a directory into itself', async () => {
      await mkdir(at('a'))
      const out = await ws.run(moveTool, { source: 'a', destination: 'a/b/c' })
      expect(textOf(out)).toBe(
        'cannot move `a` into itself (`a/b/c`); choose a destination outside it'
      )
      expect(await readdir(at('a'))).toEqual([])
    })

    it('the project folder itself, however it is named', async () => {
      await mkdir(at('sub'))
      for (const requested of ['.', 'sub/..', ws.root]) {
        const out = await ws.run(moveTool, { source: requested, destination: 'elsewhere' })
        expect(out.isError, requested).toBe(true)
        expect(textOf(out), requested).toBe(
          `\`${requested}\` is the project folder itself; Move only moves what is inside it`
        )
      }
      expect((await lstat(ws.root)).isDirectory()).toBe(true)
    })

    it('the project folder as destination', async () => {
      await writeFile(at('a.txt'), 'a\n')
      const out = await ws.run(moveTool, { source: 'a.txt', destination: '.' })
      expect(textOf(out)).toContain('`.` already exists and Move never replaces anything')
    })

    it('a destination below a file', async () => {
      await writeFile(at('a.txt'), 'a\n')
      await writeFile(at('f'), 'f\n')
      const out = await ws.run(moveTool, { source: 'a.txt', destination: 'f/a.txt' })
      expect(textOf(out)).toBe(
        'cannot create `f/a.txt`: part of its path is a file, not a directory; check the path with ListDir'
      )
    })
  })
})
