import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { removeTool } from './remove'
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

describe('Remove', () => {
  it('removes a file', async () => {
    await writeFile(at('a.txt'), 'alpha\n')
    const out = await ws.run(removeTool, { path: 'a.txt' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('Removed `a.txt` (6 bytes)')
    expect(await readdir(ws.root)).toEqual([])
  })

  it('removes an empty directory', async () => {
    await mkdir(at('empty'))
    expect(textOf(await ws.run(removeTool, { path: 'empty' }))).toBe(
      'Removed the empty directory `empty`'
    )
    expect(await readdir(ws.root)).toEqual([])
  })

  it('removes a symbolic link, leaving what it points to', async () => {
    await writeFile(at('real.txt'), 'real\n')
    await symlink('real.txt', at('alias.txt'))
    expect(textOf(await ws.run(removeTool, { path: 'alias.txt' }))).toBe(
      'Removed the symbolic link `alias.txt` (it pointed to `real.txt`, which was not touched)'
    )
    expect(await readdir(ws.root)).toEqual(['real.txt'])
  })

  it('removes a FIFO without opening it', async () => {
    makeFifo(at('pipe'))
    expect(textOf(await ws.run(removeTool, { path: 'pipe' }))).toBe(
      'Removed `pipe` (not a regular file)'
    )
  })

  describe('refuses', () => {
    it('a missing path', async () => {
      const out = await ws.run(removeTool, { path: 'nope' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`nope` does not exist, so nothing was removed; check the name with ListDir'
      )
    })

    it('a directory that is not empty, naming what is in it, and removes nothing', async () => {
      await mkdir(at('src', 'lib'), { recursive: true })
      for (const name of ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']) {
        await writeFile(at('src', name), '')
      }
      const out = await ws.run(removeTool, { path: 'src' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`src` is a directory that is not empty (6 entries: a.ts, b.ts, c.ts, d.ts, e.ts, …); Remove never deletes recursively, so remove what is inside it first'
      )
      expect((await readdir(at('src'))).length).toBe(6)
    })

    it('a directory holding one entry', async () => {
      await mkdir(at('d', 'inner'), { recursive: true })
      expect(textOf(await ws.run(removeTool, { path: 'd' }))).toBe(
        '`d` is a directory that is not empty (1 entry: inner/); Remove never deletes recursively, so remove what is inside it first'
      )
    })

    it('the project folder itself, however it is named', async () => {
      await mkdir(at('sub'))
      for (const requested of ['.', './', 'sub/..', ws.root]) {
        const out = await ws.run(removeTool, { path: requested })
        expect(out.isError, requested).toBe(true)
        expect(textOf(out), requested).toBe(
          `\`${requested}\` is the project folder itself; Remove only deletes what is inside it`
        )
      }
      await ws.run(removeTool, { path: 'sub' })
      expect(await readdir(ws.root)).toEqual([])
    })
  })
})
