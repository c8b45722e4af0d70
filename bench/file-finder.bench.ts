import { spawn } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { writeFileTree } from '../testing/file-tree'
import { findRipgrep } from '../src/main/tools/fs/search/grep-rg'
import { FileIndex } from '../src/main/file-finder/file-index'
import { rankPaths } from '../src/main/file-finder/fuzzy-rank'
import { report } from './measure'

const FILES = 100_000
const DIRS = 3_000
const LIMIT = 50
/** Paths typed, a keystroke at a time; the baseline types the first few of them too. */
const QUERIES = 40
const BASELINE_QUERIES = 4

/**
 * The `@` finder on a generated tree of 100,000 files: the latency of each keystroke while a
 * path is typed a letter at a time (target: p95 under 50 ms), against what a finder without an
 * index would do per keystroke: `rg --files` for the list, then the same JavaScript fuzzy filter
 * over it.
 */
export async function benchFileFinder(dir: string): Promise<void> {
  const rg = findRipgrep()
  if (!rg) {
    console.log('@ finder vs `rg --files`: skipped, `rg` is not installed')
    return
  }
  const tree = path.join(dir, 'finder-tree')
  await mkdir(tree, { recursive: true })
  try {
    const files = await writeFileTree(tree, { files: FILES, dirs: DIRS })
    const queries = typedQueries(files)
    const built = process.hrtime.bigint()
    const index = new FileIndex(tree)
    await index.find('', 1)
    const buildMs = Number(process.hrtime.bigint() - built) / 1e6
    const listed = process.hrtime.bigint()
    await rgFiles(rg, tree)
    report('@ finder: first build of the index, 100k', buildMs, '`rg --files`, once', ms(listed))

    const finder: number[] = []
    const baseline: number[] = []
    for (const [n, query] of queries.entries()) {
      for (let i = 1; i <= query.length; i++) {
        const typed = query.slice(0, i)
        const start = process.hrtime.bigint()
        const found = await index.find(typed, LIMIT)
        finder.push(ms(start))
        if (found.items.length === 0) throw new Error(`the finder lost "${typed}"`)
        if (n >= BASELINE_QUERIES) continue
        const again = process.hrtime.bigint()
        rankPaths(typed, await rgFiles(rg, tree), LIMIT)
        baseline.push(ms(again))
      }
    }
    index.close()
    const keys = `${finder.length} keystrokes`
    report(
      `@ finder: p95 per keystroke, ${keys}`,
      p95(finder),
      '`rg --files` + filter, p95',
      p95(baseline)
    )
    report(
      '@ finder: median per keystroke',
      median(finder),
      '`rg --files` + filter, median',
      median(baseline)
    )
    const verdict = p95(finder) < 50 ? 'met' : 'NOT met'
    console.log(`@ finder: target p95 < 50 ms per keystroke on 100k files: ${verdict}`)
  } finally {
    await rm(tree, { recursive: true, force: true })
  }
}

/** What a person would type to reach some of the files: a bit of the folder, then the name. */
function typedQueries(files: string[]): string[] {
  const queries: string[] = []
  for (let i = 0; i < QUERIES; i++) {
    const parts = (files[(i * 2_477) % files.length] ?? '').split('/')
    const name = (parts[parts.length - 1] ?? '').replace(/\..*$/, '')
    const folder = (parts[parts.length - 2] ?? '').slice(0, 3)
    queries.push(i % 2 === 0 ? `${folder}/${name}` : name.replace(/-/g, ''))
  }
  return queries
}

/** The project's files as ripgrep lists them: .gitignore honoured, hidden files in, no .git. */
function rgFiles(rg: string, cwd: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['--files', '--hidden', '--glob', '!.git'], { cwd })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', reject)
    child.on('close', () =>
      resolve(Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean))
    )
  })
}

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6

function p95(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
