import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PathJail } from '../../workspace/path-jail'
import type { ToolOutput } from '../tool'
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

const numbered = (count: number, from = 1): string[] =>
  Array.from({ length: count }, (_, i) => `line ${from + i}`)

describe('Read', () => {
  it('shows the file numbered like cat -n', async () => {
    await writeFile(path.join(ws.root, 'x.txt'), 'alpha\n  beta\n\tgamma\n')
    const out = await ws.run(readTool, { path: 'x.txt' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('     1\talpha\n     2\t  beta\n     3\t\tgamma')
  })

  it('shows a last line without a final newline', async () => {
    await writeFile(path.join(ws.root, 'x.txt'), 'one\ntwo')
    expect(textOf(await ws.run(readTool, { path: 'x.txt' }))).toBe('     1\tone\n     2\ttwo')
  })

  it('cuts at 2000 lines by default and says where to continue', async () => {
    await writeFile(path.join(ws.root, 'big.txt'), numbered(5234).join('\n') + '\n')
    const text = textOf(await ws.run(readTool, { path: 'big.txt' }))
    const lines = text.split('\n')
    expect(lines[0]).toBe('     1\tline 1')
    expect(lines[1999]).toBe('  2000\tline 2000')
    expect(text).not.toContain('line 2001')
    expect(lines.at(-1)).toBe('(showing lines 1-2000 of 5234; continue with offset 2001)')
  })

  it('starts at offset and stops at limit', async () => {
    await writeFile(path.join(ws.root, 'x.txt'), numbered(12).join('\n'))
    const text = textOf(await ws.run(readTool, { path: 'x.txt', offset: 4, limit: 3 }))
    expect(text).toBe(
      '     4\tline 4\n     5\tline 5\n     6\tline 6\n\n(showing lines 4-6 of 12; continue with offset 7)'
    )
  })

  it('says which lines it showed when an offset reaches the end', async () => {
    await writeFile(path.join(ws.root, 'x.txt'), numbered(12).join('\n'))
    const text = textOf(await ws.run(readTool, { path: 'x.txt', offset: 11 }))
    expect(text).toBe('    11\tline 11\n    12\tline 12\n\n(showing lines 11-12 of 12)')
  })

  it('says so for an empty file', async () => {
    await writeFile(path.join(ws.root, 'empty.txt'), '')
    const out = await ws.run(readTool, { path: 'empty.txt' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('(`empty.txt` is empty)')
  })

  it('records the whole file even when it shows only part, so Write may replace it', async () => {
    const file = path.join(ws.root, 'x.txt')
    await writeFile(file, numbered(12).join('\n'))
    await ws.run(readTool, { path: 'x.txt', offset: 3, limit: 1 })
    expect(ws.ctx.reads.check(file, await readFile(file))).toEqual({ ok: true })
  })

  it('records the file under its real path when read through a link inside the folder', async () => {
    const file = path.join(ws.root, 'real.txt')
    await writeFile(file, 'hi\n')
    await symlink('real.txt', path.join(ws.root, 'alias.txt'))
    expect(textOf(await ws.run(readTool, { path: 'alias.txt' }))).toBe('     1\thi')
    expect(ws.ctx.reads.check(file, await readFile(file))).toEqual({ ok: true })
  })

  describe('refuses', () => {
    it('a missing file', async () => {
      const out = await ws.run(readTool, { path: 'x.txt' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`x.txt` does not exist; check the name with ListDir')
    })

    it('a path below a file', async () => {
      await writeFile(path.join(ws.root, 'x.txt'), 'x')
      const out = await ws.run(readTool, { path: 'x.txt/y' })
      expect(textOf(out)).toBe('`x.txt/y` does not exist; check the name with ListDir')
    })

    it('a directory', async () => {
      await mkdir(path.join(ws.root, 'src'))
      const out = await ws.run(readTool, { path: 'src' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`src` is a directory; use ListDir')
    })

    it('an offset past the end, without recording the file', async () => {
      const file = path.join(ws.root, 'x')
      await writeFile(file, numbered(12).join('\n') + '\n')
      const out = await ws.run(readTool, { path: 'x', offset: 50 })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('offset 50 is past the end of `x` (12 lines)')
      expect(ws.ctx.reads.check(file, await readFile(file))).toEqual({
        ok: false,
        reason: 'not-read'
      })
    })

    it('an offset past the end of an empty file', async () => {
      await writeFile(path.join(ws.root, 'x'), '')
      const out = await ws.run(readTool, { path: 'x', offset: 2 })
      expect(textOf(out)).toBe('offset 2 is past the end of `x` (0 lines)')
    })

    it('a binary file, without recording it', async () => {
      const file = path.join(ws.root, 'x.bin')
      await writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]))
      const out = await ws.run(readTool, { path: 'x.bin' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`x.bin` is a binary file (7 bytes); Read shows text files')
      expect(ws.ctx.reads.check(file, await readFile(file)).ok).toBe(false)
    })

    it('only looks for NUL bytes in the first 8 KiB', async () => {
      const late = Buffer.concat([Buffer.from('a'.repeat(9000) + '\n'), Buffer.from([0])])
      await writeFile(path.join(ws.root, 'late.txt'), late)
      expect((await ws.run(readTool, { path: 'late.txt' })).isError).toBe(false)
    })

    it('a file over 10 MiB', async () => {
      await writeFile(path.join(ws.root, 'huge.log'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'))
      const out = await ws.run(readTool, { path: 'huge.log', offset: 1, limit: 10 })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`huge.log` is too large to Read (10485761 bytes; the limit is 10 MiB), and offset/limit cannot get around that; look at it with a shell command later instead'
      )
    })

    it('a FIFO rather than blocking on it', async () => {
      makeFifo(path.join(ws.root, 'pipe'))
      const out = await ws.run(readTool, { path: 'pipe' })
      expect(textOf(out)).toBe(
        '`pipe` is not a regular file (a device, socket or FIFO); Read shows text files'
      )
    })
  })

  describe('stays inside the project folder', () => {
    it('refuses every way out, and records nothing', async () => {
      const escapes = await plantEscapes(ws)
      for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toMissing })) {
        const out = await ws.run(readTool, { path: requested })
        expect(out.isError, how).toBe(true)
        expect(textOf(out), how).toContain('is outside the project folder')
        expect(textOf(out), how).not.toContain('secret\n')
      }
      const secret = await readFile(escapes.secretFile)
      expect(ws.ctx.reads.check(escapes.secretFile, secret).ok).toBe(false)
    })
  })

  it("reads the session's spill directory and a loaded skill's folder, which are roots too", async () => {
    const spillDir = path.join(ws.outside, 'spill')
    const skillDir = path.join(ws.outside, 'skill')
    await mkdir(spillDir)
    await mkdir(path.join(skillDir, 'docs'), { recursive: true })
    await writeFile(path.join(spillDir, 'call-1.txt'), 'the rest\n')
    await writeFile(path.join(skillDir, 'docs', 'steps.md'), 'step one\n')
    const jail = new PathJail(ws.root, { spillDir })
    jail.allowRead(skillDir)
    const ctx = { ...ws.ctx, jail }
    const read = (file: string): Promise<ToolOutput> => readTool.call({ path: file }, ctx)
    expect(textOf(await read(path.join(spillDir, 'call-1.txt')))).toBe('     1\tthe rest')
    expect(textOf(await read(path.join(skillDir, 'docs', 'steps.md')))).toBe('     1\tstep one')
    expect(textOf(await read(path.join(spillDir, 'none.txt')))).toBe(
      `\`${path.join(spillDir, 'none.txt')}\` does not exist; check the name with ListDir`
    )
    // Written to, they are outside like anything else.
    const write = await writeTool.call({ path: path.join(spillDir, 'x'), content: 'x' }, ctx)
    expect(textOf(write)).toContain('is outside the project folder')
  })
})
