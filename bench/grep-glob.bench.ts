import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { globTool } from '../src/main/tools/fs/glob'
import { createGrepTool, defaultGrepLimits } from '../src/main/tools/fs/grep'
import { findRipgrep } from '../src/main/tools/fs/search/grep-rg'
import type { Tool, ToolContext } from '../src/main/tools/tool'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { report } from './measure'

/**
 * The tree is slow to write (about 500 MB), so it is kept between runs in a fixed folder under
 * the system's temporary directory, named for this version: change the version when the tree's
 * shape changes, and the old folder is removed. Delete the folder to free the space.
 */
const TREE_VERSION = 'v1'
const TOP_DIRS = 50
const SUB_DIRS = 20
const FILES_PER_DIR = 50 // 50 × 20 × 50 = 50,000 files
const LINES_PER_FILE = 100 // about 100 bytes a line: about 10 KB a file, 500 MB in all
const NEEDLE = 'MECATL_BENCH_NEEDLE'
const RUNS = 11

/** Grep and Glob on a generated tree of 50,000 files, each against ripgrep on the same tree. */
export async function benchGrepGlob(): Promise<void> {
  const tree = await ensureTree()
  const ctx: ToolContext = {
    sessionId: 'bench',
    jail: new PathJail(tree),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
  const call = async (tool: Tool, input: unknown): Promise<void> => {
    const out = await tool.call(tool.inputSchema.parse(input), ctx)
    if (out.isError) throw new Error(`the benchmark's ${tool.name} failed`)
  }
  const rg = findRipgrep()
  if (!rg) {
    console.log(
      "Grep/Glob vs ripgrep: skipped, `rg` is not installed (install it with `apt-get install -y ripgrep`, or your system's package manager)"
    )
    return
  }
  const limits = { ...defaultGrepLimits }
  const nodeGrep = createGrepTool({ ripgrep: () => null, limits })
  const rgGrep = createGrepTool({ ripgrep: () => rg, limits })
  const literal = { pattern: NEEDLE, literal: true }
  const bareRg = (...args: string[]): Promise<void> => runToEnd(rg, args, tree)

  // Each pair is timed turn about, so a busy machine slows both sides alike.
  const [node, bare] = await interleaved(
    () => call(nodeGrep, literal),
    () => bareRg('--fixed-strings', NEEDLE, '.')
  )
  report('Grep (Node engine), literal, 50k files', node, '`rg -F` on the same tree', bare)

  const [tool, bareAgain] = await interleaved(
    () => call(rgGrep, literal),
    () => bareRg('--fixed-strings', NEEDLE, '.')
  )
  report('Grep (ripgrep engine), literal, 50k files', tool, '`rg -F` run bare', bareAgain)

  const regex = 'MECATL_BENCH_\\w+DLE'
  const [nodeRegex, bareRegex] = await interleaved(
    () => call(nodeGrep, { pattern: regex }),
    () => bareRg(regex, '.')
  )
  report(
    'Grep (Node engine), regex, 50k files',
    nodeRegex,
    '`rg` regex on the same tree',
    bareRegex
  )

  const [glob, files] = await interleaved(
    () => call(globTool, { pattern: '**/*.ts' }),
    () => bareRg('--files', '--glob', '*.ts', '.')
  )
  report('Glob **/*.ts, 50k files', glob, '`rg --files --glob *.ts`', files)
}

/** Medians of two functions timed alternately, after a warm-up of each. */
async function interleaved(
  candidate: () => Promise<unknown>,
  baseline: () => Promise<unknown>
): Promise<[number, number]> {
  await candidate()
  await baseline()
  const times: [number[], number[]] = [[], []]
  for (let i = 0; i < RUNS; i++) {
    for (const [side, fn] of [candidate, baseline].entries()) {
      const start = process.hrtime.bigint()
      await fn()
      times[side]?.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  }
  const mid = (values: number[]): number => values.sort((x, y) => x - y)[values.length >> 1] ?? 0
  return [mid(times[0]), mid(times[1])]
}

async function ensureTree(): Promise<string> {
  const parent = os.tmpdir()
  const tree = path.join(parent, `mecatl-bench-grep-tree-${TREE_VERSION}`)
  if (existsSync(path.join(tree, '.complete'))) return tree
  for (const name of await readdir(parent)) {
    if (name.startsWith('mecatl-bench-grep-tree-')) {
      await rm(path.join(parent, name), { recursive: true, force: true })
    }
  }
  console.log(`(writing the 50,000-file benchmark tree to ${tree}; later runs reuse it)`)
  const words = [
    'const',
    'value',
    'return',
    'function',
    'import',
    'export',
    'await',
    'string',
    'number',
    'result',
    'handler',
    'session',
    'provider',
    'request',
    'config',
    'error'
  ]
  let state = 12_345
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state
  }
  const pool = Array.from({ length: 4096 }, () => {
    const parts: string[] = []
    while (parts.join(' ').length < 90) parts.push(words[next() % words.length] ?? 'x')
    return parts.join(' ')
  })
  let fileNumber = 0
  for (let top = 0; top < TOP_DIRS; top++) {
    for (let sub = 0; sub < SUB_DIRS; sub++) {
      const dir = path.join(tree, `pkg${top}`, `mod${sub}`)
      await mkdir(dir, { recursive: true })
      const writes: Promise<void>[] = []
      for (let f = 0; f < FILES_PER_DIR; f++) {
        const lines = Array.from({ length: LINES_PER_FILE }, () => pool[next() % pool.length] ?? '')
        // About one file in 97 holds the needle once: a few hundred hits in all.
        if (fileNumber % 97 === 0) lines[next() % LINES_PER_FILE] = `const x = '${NEEDLE}' // found`
        const ext = ['ts', 'js', 'md', 'json'][fileNumber % 4] ?? 'txt'
        writes.push(writeFile(path.join(dir, `file${f}.${ext}`), lines.join('\n') + '\n'))
        fileNumber++
      }
      await Promise.all(writes)
    }
  }
  await writeFile(path.join(tree, '.gitignore'), '*.tmp\n')
  await writeFile(path.join(tree, '.complete'), `${TREE_VERSION}\n`)
  return tree
}

/** Runs a command to its end, reading (and dropping) all it prints. */
function runToEnd(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.resume()
    child.once('error', reject)
    child.once('close', (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`${command} exited ${code}`))
    )
  })
}
