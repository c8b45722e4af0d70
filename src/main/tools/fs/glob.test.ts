import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { globTool } from './glob'
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

async function files(...names: string[]): Promise<void> {
  for (const name of names) {
    await mkdir(path.dirname(at(name)), { recursive: true })
    await writeFile(at(name), '')
  }
}

const glob = async (input: unknown): Promise<string> => textOf(await ws.run(globTool, input))

describe('Glob', () => {
  it('lists matching files with ** across directories, sorted by path', async () => {
    await files('src/b.ts', 'src/a.ts', 'src/lib/deep/c.ts', 'B.ts', 'src/x.js', '.github/w.ts')
    const out = await ws.run(globTool, { pattern: '**/*.ts' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe(
      ['.github/w.ts', 'B.ts', 'src/a.ts', 'src/b.ts', 'src/lib/deep/c.ts'].join('\n')
    )
    expect(out.display).toEqual({
      kind: 'files',
      files: ['.github/w.ts', 'B.ts', 'src/a.ts', 'src/b.ts', 'src/lib/deep/c.ts'],
      more: 0
    })
  })

  it('keeps * within one directory, so *.ts is the top level only', async () => {
    await files('a.ts', 'src/b.ts')
    expect(await glob({ pattern: '*.ts' })).toBe('a.ts')
    expect(await glob({ pattern: './*.ts' })).toBe('a.ts')
    expect(await glob({ pattern: 'src/*.{ts,js}' })).toBe('src/b.ts')
    expect(await glob({ pattern: 'src/b.ts' })).toBe('src/b.ts')
  })

  it('searches below path, still naming files from the project folder', async () => {
    await files('pkg/a/x.ts', 'pkg/b/y.ts', 'other/z.ts')
    expect(await glob({ pattern: '**/*.ts', path: 'pkg' })).toBe('pkg/a/x.ts\npkg/b/y.ts')
    expect(await glob({ pattern: 'a/*', path: 'pkg' })).toBe('pkg/a/x.ts')
  })

  it('skips what .gitignore excludes, root and nested, unless include_ignored', async () => {
    await files('a.ts', 'dist/b.ts', 'x.log', 'sub/keep.log', 'sub/drop.ts', 'node_modules/m/i.ts')
    await writeFile(at('.gitignore'), 'dist/\n*.log\nnode_modules/\n')
    await writeFile(at('sub', '.gitignore'), '!keep.log\ndrop.ts\n')
    expect(await glob({ pattern: '**/*' })).toBe(
      ['.gitignore', 'a.ts', 'sub/.gitignore', 'sub/keep.log'].join('\n')
    )
    expect(await glob({ pattern: '**/*.ts', include_ignored: true })).toBe(
      ['a.ts', 'dist/b.ts', 'node_modules/m/i.ts', 'sub/drop.ts'].join('\n')
    )
    expect(await glob({ pattern: 'dist/**' })).toBe(
      'No files match `dist/**`; files ignored by .gitignore were skipped (set include_ignored to list them)'
    )
  })

  it('always skips .git, and neither follows nor lists symbolic links', async () => {
    await files('.git/config', 'real/a.txt')
    await writeFile(path.join(ws.outside, 'secret.txt'), '')
    await symlink(ws.outside, at('out'))
    await symlink('real', at('alias'))
    await symlink('real/a.txt', at('link.txt'))
    expect(await glob({ pattern: '**/*', include_ignored: true })).toBe('real/a.txt')
  })

  it('says when nothing matches', async () => {
    await files('a.ts')
    const out = await ws.run(globTool, { pattern: '**/*.py' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('No files match `**/*.py`')
    expect(await glob({ pattern: 'nope/**' })).toBe('No files match `nope/**`')
  })

  it('lists at most `limit` paths and says how many more matched', async () => {
    await files(...Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`))
    const out = await ws.run(globTool, { pattern: '*.txt', limit: 10 })
    const lines = textOf(out).split('\n')
    expect(lines).toHaveLength(11)
    expect(lines[9]).toBe('f09.txt')
    expect(lines[10]).toBe('… and 15 more matched; narrow the pattern')
    expect(out.display).toMatchObject({ kind: 'files', more: 15 })
  })

  it('lists 1000 paths by default', async () => {
    await files(...Array.from({ length: 1003 }, (_, i) => `d/f${String(i).padStart(4, '0')}`))
    const lines = (await glob({ pattern: 'd/*' })).split('\n')
    expect(lines).toHaveLength(1001)
    expect(lines.at(-1)).toBe('… and 3 more matched; narrow the pattern')
  })

  describe('refuses', () => {
    it('an absolute pattern', async () => {
      const out = await ws.run(globTool, { pattern: '/etc/*' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toBe(
        'the pattern `/etc/*` is an absolute path; give it relative to the project folder'
      )
    })

    it('a pattern with ..', async () => {
      expect(await glob({ pattern: '../outside/**' })).toBe(
        'the pattern `../outside/**` uses `..`, which would leave the folder it applies to; give it relative to the project folder'
      )
    })

    it('a negated pattern', async () => {
      expect(await glob({ pattern: '!*.ts' })).toBe(
        'the pattern `!*.ts` is negated, which is not supported; describe the files to include'
      )
    })

    it('a path that is a file or missing', async () => {
      await files('a.ts')
      expect(await glob({ pattern: '*', path: 'a.ts' })).toBe(
        '`a.ts` is a file; `path` must be a directory'
      )
      expect(await glob({ pattern: '*', path: 'nope' })).toBe(
        '`nope` does not exist; check the name with ListDir'
      )
    })
  })
})
