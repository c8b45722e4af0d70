// ripgrep and the Node engine must give the same results: the same tree, the same requests,
// compared result for result.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchRequest } from './engine'
import type { SearchSpec } from './file-searcher'
import { globMatcher, ripgrepGlob } from './glob-pattern'
import { sortFiles } from './grep-format'
import { searchWithNode } from './grep-node'
import { findRipgrep, searchWithRipgrep } from './grep-rg'
import { IgnoreRules } from './ignore-rules'

let root: string
let base: string

/** A deterministic pseudo-random sequence, so the tree is the same on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const words = [
  'alpha',
  'beta',
  'needle',
  'Needle',
  'gamma',
  'héllo',
  'wörld',
  'x.y',
  'foo(bar)',
  '—',
  '日本語',
  'TODO:',
  '  ',
  '\t'
]

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-engines-')))
  root = path.join(base, 'project')
  const next = random(7)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  for (let i = 0; i < 300; i++) {
    const dir =
      ['', 'src', 'src/lib', 'docs', 'build', 'sub', 'sub/deep', '.hidden', 'node_modules/pkg'][
        i % 9
      ] ?? ''
    const ext = pick(['ts', 'js', 'md', 'log', 'txt'])
    const lines = Array.from({ length: Math.floor(next() * 40) }, () =>
      Array.from({ length: Math.floor(next() * 8) }, () => pick(words)).join(' ')
    )
    const eol = next() < 0.2 ? '\r\n' : '\n'
    const tail = next() < 0.3 ? '' : eol
    await mkdir(path.join(root, dir), { recursive: true })
    await writeFile(path.join(root, dir, `f${i}.${ext}`), lines.join(eol) + tail)
  }
  await writeFile(path.join(root, '.gitignore'), 'build/\nnode_modules/\n*.log\n!keep.log\n')
  await writeFile(path.join(root, 'sub', '.gitignore'), '/deep/f*.md\n*.js\n')
  await writeFile(path.join(root, 'keep.log'), 'needle in a kept log\n')
  await writeFile(path.join(root, 'src', 'lib', 'fixed.ts'), 'alpha one\nbeta\nalpha two')
  await writeFile(path.join(root, 'bin.dat'), Buffer.from('needle\u0000needle\n'))
  await writeFile(path.join(root, 'long.txt'), 'a'.repeat(2000) + 'needle' + 'b'.repeat(50) + '\n')
  await writeFile(
    path.join(root, 'latin1.txt'),
    Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a])
  )
  await mkdir(path.join(root, '.git'))
  await writeFile(path.join(root, '.git', 'config'), 'needle\n')
  await mkdir(path.join(base, 'outside'))
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'needle\n')
  await symlink(path.join(base, 'outside'), path.join(root, 'out'))
})

afterAll(async () => {
  await rm(base, { recursive: true, force: true })
})

interface Case {
  spec: Partial<SearchSpec> & { pattern: string }
  scope?: string
  glob?: string
  includeIgnored?: boolean
}

const cases: Case[] = [
  { spec: { pattern: 'needle', literal: true } },
  { spec: { pattern: 'needle', literal: true, ignoreCase: true } },
  { spec: { pattern: 'ne+dle\\b' } },
  { spec: { pattern: 'foo\\(bar\\)', context: 2 } },
  { spec: { pattern: 'héllo|日本', context: 1 } },
  { spec: { pattern: '^alpha' } },
  { spec: { pattern: 'beta$' } },
  { spec: { pattern: 'TODO:', literal: true }, scope: 'src' },
  { spec: { pattern: 'x.y', literal: true }, glob: '*.md' },
  { spec: { pattern: 'gamma' }, glob: 'src/**/*.ts' },
  { spec: { pattern: 'needle' }, scope: 'sub' },
  { spec: { pattern: 'needle' }, includeIgnored: true },
  { spec: { pattern: 'wörld', ignoreCase: true, context: 3 }, scope: 'sub/deep' },
  { spec: { pattern: 'alpha', literal: true }, scope: 'src/lib/fixed.ts' }
]

function request(c: Case): SearchRequest {
  const scope = c.scope ?? ''
  const isFile = /\.\w+$/.test(scope)
  return {
    root,
    scope: { kind: isFile ? 'file' : 'directory', path: scope },
    spec: { literal: false, ignoreCase: false, context: 0, maxLineChars: 300, ...c.spec },
    rules: c.includeIgnored ? null : new IgnoreRules(root),
    accepts: c.glob ? globMatcher(c.glob, true) : () => true,
    ripgrepGlob: c.glob ? ripgrepGlob(c.glob) : null,
    budget: null,
    matchCeiling: 100_000,
    signal: new AbortController().signal
  }
}

describe('ripgrep and the Node engine', () => {
  it.each(cases.map((c) => [JSON.stringify(c), c] as const))('agree on %s', async (_name, c) => {
    const rg = findRipgrep()
    if (!rg)
      throw new Error('ripgrep is not installed; install it with `apt-get install -y ripgrep`')
    const fromRipgrep = await searchWithRipgrep(rg, request(c))
    const fromNode = await searchWithNode(request(c))
    expect(fromRipgrep.engine).toBe('ripgrep')
    expect(fromNode.engine).toBe('node')
    const found = sortFiles(fromNode.files)
    expect(found.length).toBeGreaterThan(0)
    expect(sortFiles(fromRipgrep.files)).toEqual(found)
    expect(fromRipgrep.matchingLines).toBe(fromNode.matchingLines)
    const paths = found.map((f) => f.path)
    expect(
      paths.some((p) => p.startsWith('.git/') || p.startsWith('out/') || p === 'bin.dat')
    ).toBe(false)
  })
})
