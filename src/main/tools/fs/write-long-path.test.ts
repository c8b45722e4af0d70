import { mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JailedDir } from '../../workspace/jailed-dir'
import { PATH_MAX } from '../../workspace/path-limits'
import {
  createTestWorkspace,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { JailScope } from './jail-scope'
import { writeTool } from './write'

// A path that cannot exist creates nothing and says why; folders made for a write that then
// fails are removed again.
let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const deep = (levels: number, name = 'a'): string => Array(levels).fill(name).join('/')

describe.runIf(Number.isFinite(PATH_MAX))('Write to a path too long to exist', () => {
  it('2,100 folders deep: refused as too long, and not one folder is made', async () => {
    const out = await ws.run(writeTool, { path: `${deep(2100)}/f.txt`, content: 'x' })
    expect(out.isError).toBe(true)
    const text = textOf(out)
    expect(text).toMatch(/is too long to exist: its full path is [\d,]+ bytes/)
    expect(text).toContain('PATH_MAX')
    expect(text).toContain('nothing was done')
    expect(text).not.toMatch(/outside|changed while/)
    // The path is quoted by its start and end, not 4,200 characters of it.
    expect(text.length).toBeLessThan(400)
    expect(await readdir(ws.root)).toEqual([])
  })

  it('a name longer than a file system allows: refused, nothing made', async () => {
    const out = await ws.run(writeTool, { path: `new/dir/${'n'.repeat(300)}.txt`, content: 'x' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/the name `n+…n+\.txt` is 304 bytes.*NAME_MAX/)
    expect(await readdir(ws.root)).toEqual([])
  })

  it('a long path that fits is still written', async () => {
    const out = await ws.run(writeTool, { path: `${deep(1000, 'd')}/f.txt`, content: 'x' })
    expect(textOf(out)).toMatch(/^Created `d\/d\//)
  })
})

describe('folders made on the way and then not needed', () => {
  it('a walk that fails part way removes the folders it made, and only those', async () => {
    await mkdir(path.join(ws.root, 'kept'))
    const walk = JailedDir.walk(ws.root, ['kept', 'new1', 'new2', 'x'.repeat(300)], true)
    await expect(walk).rejects.toMatchObject({ code: 'ENAMETOOLONG' })
    expect(await readdir(ws.root)).toEqual(['kept'])
    expect(await readdir(path.join(ws.root, 'kept'))).toEqual([])
  })

  it('a write whose file cannot be made removes the folders made for it (undoCreated)', async () => {
    await mkdir(path.join(ws.root, 'kept'))
    await writeFile(path.join(ws.root, 'kept', 'other.txt'), 'stays')
    const scope = new JailScope(ws.ctx)
    try {
      const located = await scope.locate('kept/new1/new2/file.txt')
      if (!located.ok) throw new Error(textOf(located.output))
      const dir = await scope.createParent(located.place)
      expect(dir?.path).toBe(path.join(ws.root, 'kept', 'new1', 'new2'))
      expect(await readdir(path.join(ws.root, 'kept'))).toEqual(['new1', 'other.txt'])
      await scope.undoCreated()
    } finally {
      await scope.close()
    }
    expect(await readdir(path.join(ws.root, 'kept'))).toEqual(['other.txt'])
  })

  it('folders a write needed stay once it succeeds', async () => {
    const out = await ws.run(writeTool, { path: 'p/q/r.txt', content: 'x' })
    expect(out.isError).toBe(false)
    expect(await readdir(path.join(ws.root, 'p', 'q'))).toEqual(['r.txt'])
  })
})
