import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LIST_MAX_ENTRIES, listDirTool } from './list-dir'
import {
  createTestWorkspace,
  plantEscapes,
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

describe('ListDir', () => {
  it('lists the project folder by default, sorted by code unit, directories with a slash', async () => {
    await writeFile(path.join(ws.root, 'b.txt'), '')
    await writeFile(path.join(ws.root, 'B.txt'), '')
    await writeFile(path.join(ws.root, 'a.txt'), '')
    await writeFile(path.join(ws.root, '_x'), '')
    await mkdir(path.join(ws.root, 'src'))
    await mkdir(path.join(ws.root, 'Docs'))
    const out = await ws.run(listDirTool, {})
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe(['B.txt', 'Docs/', '_x', 'a.txt', 'b.txt', 'src/'].join('\n'))
    expect(out.display).toEqual({
      kind: 'listing',
      entries: ['B.txt', 'Docs/', '_x', 'a.txt', 'b.txt', 'src/']
    })
  })

  it('lists a subdirectory', async () => {
    await mkdir(path.join(ws.root, 'src', 'lib'), { recursive: true })
    await writeFile(path.join(ws.root, 'src', 'main.ts'), '')
    expect(textOf(await ws.run(listDirTool, { path: 'src' }))).toBe('lib/\nmain.ts')
  })

  it('shows symlinks with their target, including dangling ones, without following them', async () => {
    await writeFile(path.join(ws.root, 'real.txt'), '')
    await symlink('real.txt', path.join(ws.root, 'alias'))
    await symlink('nowhere', path.join(ws.root, 'broken'))
    expect(textOf(await ws.run(listDirTool, { path: '.' }))).toBe(
      'alias -> real.txt\nbroken -> nowhere\nreal.txt'
    )
  })

  it('shows the kind of special files', async () => {
    makeFifo(path.join(ws.root, 'pipe'))
    expect(textOf(await ws.run(listDirTool, {}))).toBe('pipe (fifo)')
  })

  it('says when a directory is empty', async () => {
    await mkdir(path.join(ws.root, 'empty'))
    const out = await ws.run(listDirTool, { path: 'empty' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('(empty directory)')
  })

  it(`lists at most ${LIST_MAX_ENTRIES} entries and counts the rest`, async () => {
    const dir = path.join(ws.root, 'many')
    await mkdir(dir)
    const names = Array.from(
      { length: LIST_MAX_ENTRIES + 5 },
      (_, i) => `f${String(i).padStart(4, '0')}`
    )
    await Promise.all(names.map((name) => writeFile(path.join(dir, name), '')))
    const lines = textOf(await ws.run(listDirTool, { path: 'many' })).split('\n')
    expect(lines).toHaveLength(LIST_MAX_ENTRIES + 1)
    expect(lines[0]).toBe('f0000')
    expect(lines[LIST_MAX_ENTRIES - 1]).toBe('f0999')
    expect(lines.at(-1)).toBe('(5 more entries not listed; 1005 in all)')
  })

  describe('refuses', () => {
    it('a missing path', async () => {
      const out = await ws.run(listDirTool, { path: 'nope' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`nope` does not exist; list its parent directory to check the name')
    })

    it('a file', async () => {
      await writeFile(path.join(ws.root, 'x.txt'), 'x')
      const out = await ws.run(listDirTool, { path: 'x.txt' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`x.txt` is not a directory; use Read to see a file')
    })
  })

  describe('stays inside the project folder', () => {
    it('refuses every way out', async () => {
      const escapes = await plantEscapes(ws)
      const attempts = { ...escapes.toDirectory, ...escapes.toFile, ...escapes.toMissing }
      for (const [how, requested] of Object.entries(attempts)) {
        const out = await ws.run(listDirTool, { path: requested })
        expect(out.isError, how).toBe(true)
        expect(textOf(out), how).toContain('is outside the project folder')
        expect(textOf(out), how).not.toContain('secret.txt\n')
      }
    })

    it('lists a symlinked directory that stays inside', async () => {
      await mkdir(path.join(ws.root, 'real'))
      await writeFile(path.join(ws.root, 'real', 'f'), '')
      await symlink('real', path.join(ws.root, 'alias'))
      expect(textOf(await ws.run(listDirTool, { path: 'alias' }))).toBe('f')
    })
  })
})
