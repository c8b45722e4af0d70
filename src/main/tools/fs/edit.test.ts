import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool } from './edit'
import { readTool } from './read'
import {
  createTestWorkspace,
  plantEscapes,
  textOf,
  type TestWorkspace
} from '../../../../testing/fs-test-context'
import { writeTool } from './write'

let ws: TestWorkspace
beforeEach(async () => {
  ws = await createTestWorkspace()
})
afterEach(async () => {
  await ws.cleanup()
})

const at = (...parts: string[]): string => path.join(ws.root, ...parts)

/** Puts a file on disk and reads it in the session, as the model would before editing. */
async function seen(name: string, content: string | Buffer): Promise<void> {
  await writeFile(at(name), content)
  const out = await ws.run(readTool, { path: name })
  expect(out.isError).toBe(false)
}

describe('Edit', () => {
  it('replaces the one occurrence and shows the lines around it', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`)
    await seen('x.txt', lines.join('\n') + '\n')
    const out = await ws.run(editTool, { path: 'x.txt', old: 'line 10\n', new: 'ten\nTEN\n' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe(
      [
        'Edited `x.txt`: replaced 1 occurrence.',
        '     7\tline 7',
        '     8\tline 8',
        '     9\tline 9',
        '    10\tten',
        '    11\tTEN',
        '    12\tline 11',
        '    13\tline 12',
        '    14\tline 13'
      ].join('\n')
    )
    const expected = [...lines.slice(0, 9), 'ten', 'TEN', ...lines.slice(10)].join('\n') + '\n'
    expect(await readFile(at('x.txt'), 'utf8')).toBe(expected)
  })

  it('replaces every occurrence with replace_all', async () => {
    await seen('x.ts', 'let a = foo()\nfoo(foo)\n')
    const out = await ws.run(editTool, { path: 'x.ts', old: 'foo', new: 'bar', replace_all: true })
    expect(textOf(out).split('\n')[0]).toBe(
      'Edited `x.ts`: replaced 3 occurrences (showing the first).'
    )
    expect(await readFile(at('x.ts'), 'utf8')).toBe('let a = bar()\nbar(bar)\n')
  })

  it('deletes text when `new` is empty', async () => {
    await seen('x.txt', 'keep\ndrop\nkeep too\n')
    const out = await ws.run(editTool, { path: 'x.txt', old: 'drop\n', new: '' })
    expect(textOf(out)).toBe(
      'Edited `x.txt`: replaced 1 occurrence.\n     1\tkeep\n     2\tkeep too'
    )
    expect(await readFile(at('x.txt'), 'utf8')).toBe('keep\nkeep too\n')
  })

  it('keeps the snippet short when the new text is long', async () => {
    await seen('x.txt', 'start\nHERE\nend\n')
    const long = Array.from({ length: 100 }, (_, i) => `new ${i}`).join('\n')
    const out = await ws.run(editTool, { path: 'x.txt', old: 'HERE', new: long })
    const lines = textOf(out).split('\n')
    expect(lines).toHaveLength(31)
    expect(lines[1]).toBe('     1\tstart')
    expect(lines[30]).toBe('    30\tnew 28')
  })

  it('inserts `new` literally, even with $ patterns in it', async () => {
    await seen('x.txt', 'price: X\n')
    await ws.run(editTool, { path: 'x.txt', old: 'X', new: "$& $1 $$ $' $`" })
    expect(await readFile(at('x.txt'), 'utf8')).toBe("price: $& $1 $$ $' $`\n")
  })

  it('allows a second edit without reading again, and a third after its own Write', async () => {
    await seen('x.txt', 'a b c\n')
    await ws.run(editTool, { path: 'x.txt', old: 'a', new: 'A' })
    expect((await ws.run(editTool, { path: 'x.txt', old: 'b', new: 'B' })).isError).toBe(false)
    await ws.run(writeTool, { path: 'x.txt', content: 'fresh\n' })
    expect((await ws.run(editTool, { path: 'x.txt', old: 'fresh', new: 'F' })).isError).toBe(false)
    expect(await readFile(at('x.txt'), 'utf8')).toBe('F\n')
  })

  it('keeps a byte order mark and CRLF line ends it did not touch', async () => {
    await seen('win.txt', '\uFEFFone\r\ntwo\r\n')
    await ws.run(editTool, { path: 'win.txt', old: 'two', new: 'deux' })
    expect(await readFile(at('win.txt'), 'utf8')).toBe('\uFEFFone\r\ndeux\r\n')
  })

  it('edits the target of a link inside the folder', async () => {
    await writeFile(at('real.txt'), 'old\n')
    await symlink('real.txt', at('alias.txt'))
    await ws.run(readTool, { path: 'alias.txt' })
    await ws.run(editTool, { path: 'alias.txt', old: 'old', new: 'new' })
    expect(await readFile(at('real.txt'), 'utf8')).toBe('new\n')
  })

  describe('refuses', () => {
    it('a missing file', async () => {
      const out = await ws.run(editTool, { path: 'x.txt', old: 'a', new: 'b' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x.txt` does not exist; check the name with ListDir, or use Write to create a file'
      )
      expect(await readdir(ws.root)).toEqual([])
    })

    it('a directory', async () => {
      await mkdir(at('src'))
      const out = await ws.run(editTool, { path: 'src', old: 'a', new: 'b' })
      expect(textOf(out)).toBe('`src` is a directory; Edit changes files')
    })

    it('an empty `old`', async () => {
      await seen('x.txt', 'abc')
      const out = await ws.run(editTool, { path: 'x.txt', old: '', new: 'b' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`old` is empty; give the exact text to replace (to create a file, use Write)'
      )
      expect(await readFile(at('x.txt'), 'utf8')).toBe('abc')
    })

    it('`old` equal to `new`', async () => {
      await seen('x.txt', 'abc')
      const out = await ws.run(editTool, { path: 'x.txt', old: 'b', new: 'b' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe('`old` and `new` are the same; there is nothing to change')
    })

    it('a file this session has not read', async () => {
      await writeFile(at('x'), 'abc')
      const out = await ws.run(editTool, { path: 'x', old: 'b', new: 'B' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x` already exists and this session has not read it; Read it first, then Edit'
      )
      expect(await readFile(at('x'), 'utf8')).toBe('abc')
    })

    it('a file that changed since it was read', async () => {
      await seen('x', 'abc')
      await writeFile(at('x'), 'abcd')
      const out = await ws.run(editTool, { path: 'x', old: 'b', new: 'B' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x` has changed since this session read it; Read it again and re-apply your change'
      )
      expect(await readFile(at('x'), 'utf8')).toBe('abcd')
    })

    it('a read-only file, which keeps its content and mode', async () => {
      await seen('locked.txt', 'abc')
      await chmod(at('locked.txt'), 0o444)
      const out = await ws.run(editTool, { path: 'locked.txt', old: 'b', new: 'B' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`locked.txt` is read-only (mode 444), so Edit did not replace it; if it should change, make it writable first (for example `chmod u+w`), or leave it as it is'
      )
      expect(await readFile(at('locked.txt'), 'utf8')).toBe('abc')
      expect((await stat(at('locked.txt'))).mode & 0o777).toBe(0o444)
    })

    it('keeps the mode of the file it replaces', async () => {
      await seen('run.sh', 'echo a\n')
      await chmod(at('run.sh'), 0o751)
      expect((await ws.run(editTool, { path: 'run.sh', old: 'a', new: 'b' })).isError).toBe(false)
      expect((await stat(at('run.sh'))).mode & 0o777).toBe(0o751)
    })

    it('`old` that is not in the file', async () => {
      await seen('x', '  indented\n')
      const out = await ws.run(editTool, { path: 'x', old: 'indented \n', new: 'y' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`old` was not found in `x`; Read the file and copy the exact text, including whitespace'
      )
    })

    it('`old` that appears several times without replace_all', async () => {
      await seen('x', 'foo\nfoo\nfoo\n')
      const out = await ws.run(editTool, { path: 'x', old: 'foo', new: 'bar' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`old` appears 3 times; include more surrounding context to make it unique, or set replace_all'
      )
      expect(await readFile(at('x'), 'utf8')).toBe('foo\nfoo\nfoo\n')
    })

    it('counts occurrences without overlap, as they would be replaced', async () => {
      await seen('x', 'aaaa')
      const out = await ws.run(editTool, { path: 'x', old: 'aa', new: 'b' })
      expect(textOf(out)).toMatch(/^`old` appears 2 times;/)
    })

    it('a file that is not valid UTF-8, rather than corrupt it', async () => {
      const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1')
      await seen('x.txt', latin1)
      const out = await ws.run(editTool, { path: 'x.txt', old: 'lait', new: 'milk' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        '`x.txt` is not valid UTF-8 text, so Edit could not write it back unchanged; leave it as it is or replace it whole with Write'
      )
      expect(await readFile(at('x.txt'))).toEqual(latin1)
    })
  })

  describe('stays inside the project folder', () => {
    it('refuses every way out, and neither changes nor creates anything outside', async () => {
      const escapes = await plantEscapes(ws)
      ws.ctx.reads.record(escapes.secretFile, await readFile(escapes.secretFile))
      for (const [how, requested] of Object.entries({ ...escapes.toFile, ...escapes.toMissing })) {
        const out = await ws.run(editTool, { path: requested, old: 'secret', new: 'pwned' })
        expect(out.isError, how).toBe(true)
        expect(textOf(out), how).toContain('is outside the project folder')
      }
      expect(await readFile(escapes.secretFile, 'utf8')).toBe('secret\n')
      expect(await readdir(ws.outside)).toEqual(['secret.txt'])
    })
  })
})
