import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PathJail } from '../../workspace/path-jail'
import type { Tool } from '../tool'
import { createGrepTool, defaultGrepLimits, type GrepLimits } from './grep'
import { findRipgrep } from './search/grep-rg'
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

async function files(tree: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(tree)) {
    await mkdir(path.dirname(at(name)), { recursive: true })
    await writeFile(at(name), content)
  }
}

function ripgrep(): string {
  const rg = findRipgrep()
  if (!rg) throw new Error('ripgrep is not installed; install it with `apt-get install -y ripgrep`')
  return rg
}

// Every behaviour holds for both engines: ripgrep when it is on PATH, Node when it is not.
describe.each([
  ['ripgrep', ripgrep],
  ['the Node engine', () => null]
])('Grep with %s', (_name, engine) => {
  const grep = (limits: GrepLimits = defaultGrepLimits): Tool =>
    createGrepTool({ ripgrep: engine, limits })
  const run = async (input: unknown, limits?: GrepLimits): Promise<string> =>
    textOf(await ws.run(grep(limits), input))

  it('prints path:line:text, files sorted by path, lines in order', async () => {
    await files({
      'src/b.ts': 'one\nneedle two\nthree\nneedle four\n',
      'a.txt': 'a needle\n',
      'src/a.ts': 'no\n'
    })
    const out = await ws.run(grep(), { pattern: 'needle' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe(
      ['a.txt:1:a needle', 'src/b.ts:2:needle two', 'src/b.ts:4:needle four'].join('\n')
    )
    expect(out.display).toEqual({
      kind: 'matches',
      more: 0,
      matches: [
        { path: 'a.txt', line: 1, text: 'a needle', ranges: [[2, 8]] },
        { path: 'src/b.ts', line: 2, text: 'needle two', ranges: [[0, 6]] },
        { path: 'src/b.ts', line: 4, text: 'needle four', ranges: [[0, 6]] }
      ]
    })
  })

  it('reads the pattern as a regular expression, or as text with literal', async () => {
    await files({ 'x.js': 'call(a)\ncallxa)\nfoo.bar\n' })
    expect(await run({ pattern: 'call.a\\)' })).toBe('x.js:1:call(a)\nx.js:2:callxa)')
    expect(await run({ pattern: 'call(a)', literal: true })).toBe('x.js:1:call(a)')
    expect(await run({ pattern: 'foo.bar', literal: true })).toBe('x.js:3:foo.bar')
  })

  it('marks every hit on a line, in UTF-16 offsets past non-ASCII text', async () => {
    await files({ 'u.txt': 'héllo wörld — wörld\n' })
    const out = await ws.run(grep(), { pattern: 'wörld' })
    expect(out.display).toMatchObject({
      matches: [
        {
          line: 1,
          ranges: [
            [6, 11],
            [14, 19]
          ]
        }
      ]
    })
  })

  it('matches case-insensitively on request', async () => {
    await files({ 'x.txt': 'Needle\nNEEDLE\nneedle\nnope\n' })
    expect(await run({ pattern: 'needle' })).toBe('x.txt:3:needle')
    expect(await run({ pattern: 'needle', ignore_case: true })).toBe(
      'x.txt:1:Needle\nx.txt:2:NEEDLE\nx.txt:3:needle'
    )
    expect(await run({ pattern: 'needle', ignore_case: true, literal: true })).toContain(
      'x.txt:2:NEEDLE'
    )
    await files({ 'u.txt': 'Ärger-Über (1)\n' })
    expect(await run({ pattern: 'äRGER-über (1)', ignore_case: true, literal: true })).toBe(
      'u.txt:1:Ärger-Über (1)'
    )
  })

  it('shows context lines with `-` and separates groups with `--`', async () => {
    const lines = Array.from({ length: 20 }, (_, i) =>
      i + 1 === 5 || i + 1 === 7 || i + 1 === 15 ? `hit ${i + 1}` : `l${i + 1}`
    )
    await files({ 'a.txt': lines.join('\n') + '\n', 'b.txt': 'hit b\n' })
    expect(await run({ pattern: 'hit', context: 2 })).toBe(
      [
        'a.txt-3-l3',
        'a.txt-4-l4',
        'a.txt:5:hit 5',
        'a.txt-6-l6',
        'a.txt:7:hit 7',
        'a.txt-8-l8',
        'a.txt-9-l9',
        '--',
        'a.txt-13-l13',
        'a.txt-14-l14',
        'a.txt:15:hit 15',
        'a.txt-16-l16',
        'a.txt-17-l17',
        '--',
        'b.txt:1:hit b'
      ].join('\n')
    )
  })

  it('never matches across lines', async () => {
    await files({ 'x.txt': 'foo\nbar\n' })
    expect(await run({ pattern: 'foo\\s+bar' })).toBe('No matches for `foo\\s+bar`')
    expect(await run({ pattern: 'o$' })).toBe('x.txt:1:foo')
    expect(await run({ pattern: '^bar' })).toBe('x.txt:2:bar')
  })

  it('searches one directory or one file with path', async () => {
    await files({ 'src/a.ts': 'x\n', 'lib/b.ts': 'x\n', 'c.ts': 'x\n' })
    expect(await run({ pattern: 'x', path: 'src' })).toBe('src/a.ts:1:x')
    expect(await run({ pattern: 'x', path: 'lib/b.ts' })).toBe('lib/b.ts:1:x')
    expect(await run({ pattern: 'y', path: 'src' })).toBe('No matches for `y` in `src`')
  })

  it('searches only files matching glob: any depth without a slash, anchored with one', async () => {
    await files({ 'a.ts': 'x\n', 'src/b.ts': 'x\n', 'src/deep/c.ts': 'x\n', 'src/d.js': 'x\n' })
    expect(await run({ pattern: 'x', glob: '*.ts' })).toBe(
      'a.ts:1:x\nsrc/b.ts:1:x\nsrc/deep/c.ts:1:x'
    )
    expect(await run({ pattern: 'x', glob: 'src/**/*.ts' })).toBe('src/b.ts:1:x\nsrc/deep/c.ts:1:x')
    expect(await run({ pattern: 'x', glob: 'deep/*.ts' })).toBe(
      'No matches for `x` (files matching `deep/*.ts`)'
    )
    expect(await run({ pattern: 'x', glob: 'src/*.{js,ts}' })).toBe('src/b.ts:1:x\nsrc/d.js:1:x')
    expect(await run({ pattern: 'x', glob: '+(a|b).ts' })).toBe('a.ts:1:x\nsrc/b.ts:1:x')
  })

  it('skips what .gitignore excludes (root and nested files), unless include_ignored', async () => {
    await files({
      '.gitignore': '*.log\nbuild/\n',
      'app.log': 'x\n',
      'build/out.js': 'x\n',
      'keep.ts': 'x\n',
      'sub/.gitignore': '!keep.log\n/local.ts\n',
      'sub/keep.log': 'x\n',
      'sub/local.ts': 'x\n',
      'sub/deeper/local.ts': 'x\n'
    })
    expect(await run({ pattern: 'x' })).toBe(
      ['keep.ts:1:x', 'sub/deeper/local.ts:1:x', 'sub/keep.log:1:x'].join('\n')
    )
    expect(await run({ pattern: 'x', path: 'sub' })).toBe(
      'sub/deeper/local.ts:1:x\nsub/keep.log:1:x'
    )
    expect(await run({ pattern: 'x', glob: '*.log' })).toBe('sub/keep.log:1:x')
    expect(await run({ pattern: 'x', include_ignored: true })).toBe(
      [
        'app.log:1:x',
        'build/out.js:1:x',
        'keep.ts:1:x',
        'sub/deeper/local.ts:1:x',
        'sub/keep.log:1:x',
        'sub/local.ts:1:x'
      ].join('\n')
    )
  })

  it('says when the path it was given is ignored, and how to search it', async () => {
    await files({ '.gitignore': 'build/\n', 'build/a.js': 'x\n' })
    const out = await ws.run(grep(), { pattern: 'x', path: 'build' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toBe(
      '`build` is ignored by .gitignore, so it is not searched; set include_ignored to true to search it'
    )
    expect(await run({ pattern: 'x', path: 'build', include_ignored: true })).toBe('build/a.js:1:x')
  })

  it('mentions ignored files when nothing matched', async () => {
    await files({ '.gitignore': '*.log\n', 'a.log': 'x\n' })
    expect(await run({ pattern: 'x' })).toBe(
      'No matches for `x`; files ignored by .gitignore were not searched'
    )
  })

  it('skips binary files, wherever the NUL byte is, and .git', async () => {
    await files({
      'a.bin': Buffer.from('needle\u0000\n'),
      'late.bin': Buffer.concat([
        Buffer.from('needle\n' + 'x'.repeat(100_000) + '\n'),
        Buffer.from([0])
      ]),
      '.git/config': 'needle\n',
      '.hidden/h.txt': 'needle\n'
    })
    expect(await run({ pattern: 'needle' })).toBe('.hidden/h.txt:1:needle')
    expect(await run({ pattern: 'needle', path: 'late.bin' })).toBe(
      'No matches for `needle` in `late.bin`'
    )
  })

  it('neither follows nor searches symbolic links', async () => {
    await files({ 'real/a.txt': 'needle\n' })
    await writeFile(path.join(ws.outside, 'secret.txt'), 'needle secret\n')
    await symlink(ws.outside, at('out'))
    await symlink('real', at('alias'))
    await symlink('real/a.txt', at('file-link.txt'))
    expect(await run({ pattern: 'needle' })).toBe('real/a.txt:1:needle')
  })

  it('cuts long lines around the first hit', async () => {
    await files({ 'min.js': 'a'.repeat(5000) + 'needle' + 'b'.repeat(5000) + '\n' })
    const out = await ws.run(grep(), { pattern: 'needle' })
    const line = textOf(out)
    expect(line.startsWith('min.js:1:…' + 'a'.repeat(100) + 'needle')).toBe(true)
    expect(line.endsWith('b…')).toBe(true)
    expect(line.length).toBe('min.js:1:'.length + 300 + 2)
    expect(out.display).toMatchObject({ matches: [{ ranges: [[101, 107]] }] })
  })

  it('finds lines past the first megabyte of a large file, numbered right', async () => {
    const filler = 'filler line of text\n'.repeat(200_000)
    await files({ 'big.txt': filler + 'needle here\n' + filler + 'last needle' })
    expect(await run({ pattern: 'needle', context: 1 })).toBe(
      [
        'big.txt-200000-filler line of text',
        'big.txt:200001:needle here',
        'big.txt-200002-filler line of text',
        '--',
        'big.txt-400001-filler line of text',
        'big.txt:400002:last needle'
      ].join('\n')
    )
  })

  it('takes patterns only JavaScript reads (look-behind, a bare brace)', async () => {
    await files({ 'x.ts': 'import { a } from "b"\nfooBar\nbazBar\n' })
    expect(await run({ pattern: '(?<=foo)Bar' })).toBe('x.ts:2:fooBar')
    expect(await run({ pattern: 'import {' })).toBe('x.ts:1:import { a } from "b"')
  })

  it('lists at most the shown limit of matching lines and counts the rest', async () => {
    await files({ 'x.txt': Array.from({ length: 12 }, (_, i) => `hit ${i + 1}`).join('\n') })
    const limits = { ...defaultGrepLimits, shownLines: 5 }
    const out = await ws.run(grep(limits), { pattern: 'hit' })
    const text = textOf(out).split('\n')
    expect(text.slice(0, 5)).toEqual([
      'x.txt:1:hit 1',
      'x.txt:2:hit 2',
      'x.txt:3:hit 3',
      'x.txt:4:hit 4',
      'x.txt:5:hit 5'
    ])
    expect(text[5]).toBe(
      '… and 7 more matching lines not shown; narrow the pattern, or scope the search with path or glob'
    )
    expect(out.display).toMatchObject({ kind: 'matches', more: 7 })
  })

  it('finds every match among more files than ripgrep is handed at once', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 600; i++)
      tree[`d${i % 5}/f${String(i).padStart(3, '0')}.txt`] = `x\nhit ${i}\n`
    await files(tree)
    const lines = textOf(
      await ws.run(grep({ ...defaultGrepLimits, shownLines: 1000 }), { pattern: 'hit' })
    ).split('\n')
    expect(lines).toHaveLength(600)
    expect(new Set(lines).size).toBe(600)
    expect(lines.slice(0, 2)).toEqual(['d0/f000.txt:2:hit 0', 'd0/f005.txt:2:hit 5'])
  })

  it('stops after the match ceiling and says to scope the search', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 30; i++) tree[`f${String(i).padStart(2, '0')}.txt`] = 'hit\nhit\n'
    await files(tree)
    const limits = { ...defaultGrepLimits, shownLines: 3, matchCeiling: 10 }
    const text = textOf(await ws.run(grep(limits), { pattern: 'hit' }))
    expect(text).toMatch(/… and at least \d+ more matching lines not shown/)
    expect(text.split('\n').at(-1)).toBe(
      '(The search stopped after 10 matching lines. Scope it with path or glob, or make the pattern narrower.)'
    )
  })

  describe('refuses', () => {
    it('an invalid regular expression, suggesting literal', async () => {
      const out = await ws.run(grep(), { pattern: 'a(b' })
      expect(out.isError).toBe(true)
      expect(textOf(out)).toMatch(
        /^`a\(b` is not a valid regular expression \(.+\); fix it, or set literal to true to search for the text as written$/
      )
    })

    it('a missing path', async () => {
      const out = await ws.run(grep(), { pattern: 'x', path: 'nope' })
      expect(textOf(out)).toBe('`nope` does not exist; check the name with ListDir')
    })

    it('an absolute glob or one with ..', async () => {
      expect(await run({ pattern: 'x', glob: '/etc/*' })).toBe(
        'the glob `/etc/*` is an absolute path; give it relative to the project folder'
      )
      expect(await run({ pattern: 'x', glob: '../outside/*' })).toBe(
        'the glob `../outside/*` uses `..`, which would leave the folder it applies to; give it relative to the project folder'
      )
    })
  })
})

describe('Grep of a spilled output', () => {
  it("searches a file in the session's spill directory, naming it by its full path", async () => {
    const spillDir = path.join(ws.outside, 'spill')
    await mkdir(spillDir)
    const spilled = path.join(spillDir, 'call-1.txt')
    await writeFile(spilled, 'first\nthe rest: needle\n')
    const ctx = { ...ws.ctx, jail: new PathJail(ws.root, { spillDir }) }
    for (const engine of [findRipgrep, () => null]) {
      const grep = createGrepTool({ ripgrep: engine })
      const out = await grep.call(grep.inputSchema.parse({ pattern: 'needle', path: spilled }), ctx)
      expect(textOf(out)).toBe(`${spilled}:2:the rest: needle`)
    }
  })
})

describe('Grep with ripgrep', () => {
  it("shows the lines ripgrep's own regex dialect matches (read again through the jail)", async () => {
    await files({ 'u.txt': 'wörld\nworld\n', 'n.txt': 'a 42\n' })
    const grep = createGrepTool({ ripgrep })
    // JavaScript's \w is ASCII and it has no POSIX classes: the Node engine would miss these.
    const out = await ws.run(grep, { pattern: 'w\\w+ld' })
    expect(textOf(out)).toBe('u.txt:1:wörld\nu.txt:2:world')
    expect(out.display).toMatchObject({ matches: [{ ranges: [[0, 5]] }, { ranges: [[0, 5]] }] })
    expect(textOf(await ws.run(grep, { pattern: '[[:digit:]]+' }))).toBe('n.txt:1:a 42')
  })
})

describe('Grep with the Node engine', () => {
  it('keeps the results of two searches apart when they share the worker threads', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 400; i++) tree[`d${i % 7}/f${i}.txt`] = i % 2 ? 'odd\n' : 'even\n'
    await files(tree)
    const grep = createGrepTool({ ripgrep: () => null })
    const [odd, even] = await Promise.all([
      ws.run(grep, { pattern: 'odd' }),
      ws.run(grep, { pattern: 'even' })
    ])
    expect(odd.display).toMatchObject({ kind: 'matches', more: 0 })
    expect(textOf(odd).split('\n')).toHaveLength(200)
    expect(textOf(odd)).not.toContain('even')
    expect(textOf(even).split('\n')).toHaveLength(200)
    expect(textOf(even)).not.toContain('odd')
  })

  it('stops a search of the whole project at the file budget and says to scope it', async () => {
    const tree: Record<string, string> = {}
    for (let i = 0; i < 20; i++) tree[`f${i}.txt`] = 'nothing\n'
    await files(tree)
    const limits = { ...defaultGrepLimits, unscoped: { files: 5, bytes: 1 << 30 } }
    const grep = createGrepTool({ ripgrep: () => null, limits })
    const text = textOf(await ws.run(grep, { pattern: 'x' }))
    expect(text).toBe(
      [
        'No matches for `x`',
        '(The search stopped after 5 files, the most a search of the whole project reads, so files may be missing. Scope it with path (a directory) or glob (e.g. `src/**/*.ts`).)'
      ].join('\n')
    )
    const byBytes = { ...defaultGrepLimits, unscoped: { files: 1000, bytes: 30 } }
    const bytesGrep = createGrepTool({ ripgrep: () => null, limits: byBytes })
    expect(
      textOf(await ws.run(bytesGrep, { pattern: 'x' }))
        .split('\n')
        .at(-1)
    ).toBe(
      '(The search stopped after 30 bytes, the most a search of the whole project reads, so files may be missing. Scope it with path (a directory) or glob (e.g. `src/**/*.ts`).)'
    )
    // A scoped search has no such budget.
    expect(textOf(await ws.run(grep, { pattern: 'x', glob: '*.txt' }))).toBe(
      'No matches for `x` (files matching `*.txt`)'
    )
  })
})
