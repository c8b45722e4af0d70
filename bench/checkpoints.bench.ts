import { execFile } from 'node:child_process'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { ShadowStore } from '../src/main/checkpoints/shadow-store'
import { SmallSpawner } from '../src/main/checkpoints/small-spawner'
import { report, reportAmount } from './measure'

const TOP_FOLDERS = 20
const SUB_FOLDERS = 10
const FILES_PER_FOLDER = 50
/** The mean file size; sizes are spread evenly from 0.2x to 1.8x of it. */
const MEAN_FILE_BYTES = 10 * 1024
/** Rounds of each timed figure; the median is reported. */
const ROUNDS = 11
const GROWTH_CHECKPOINTS = 100
const INCREMENTAL_TARGET_MS = 150
const GROWTH_TARGET_BYTES = 2 * 1024 * 1024
const RESTORE_TARGET_MS = 100
const MB = 1024 * 1024

/** A deterministic generator (mulberry32), so every run checkpoints the same project. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

const VERBS = 'load save parse render apply build read check merge emit'.split(' ')
const NOUNS = 'Session Tool Rule Job Path Event Frame Store Item Card'.split(' ')
/** 600 identifiers: `loadSession`, `saveTool`, ... and numbered ones like `emitCard417`. */
const NAMES = Array.from(
  { length: 600 },
  (_, i) =>
    `${VERBS[i % 10] ?? ''}${NOUNS[Math.floor(i / 10) % 10] ?? ''}${i >= 100 ? String(i) : ''}`
)
const TYPES = ['string', 'number', 'boolean', 'Session', 'ToolOutput', 'Buffer', 'unknown[]']

/**
 * Source-like TypeScript text: functions, calls, literals and comments drawn from a vocabulary
 * of 600 identifiers by a seeded generator. Like real source it repeats words a lot (zlib makes
 * about a third of it) but no two files are alike, so git stores every one; pure random bytes
 * would make the store look worse than any real project, one text repeated would make it look
 * better.
 */
function sourceText(next: () => number, bytes: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const lines: string[] = []
  let size = 0
  while (size < bytes) {
    const name = pick(NAMES)
    const roll = next()
    const line =
      roll < 0.1
        ? `export function ${name}(${pick(NAMES)}: ${pick(TYPES)}): ${pick(TYPES)} {`
        : roll < 0.2
          ? `  // ${pick(NAMES)} before ${pick(NAMES)}, or the ${pick(NAMES)} is lost`
          : roll < 0.3
            ? '}'
            : roll < 0.6
              ? `  const ${name} = ${pick(NAMES)}(${pick(NAMES)}, ${Math.floor(next() * 10_000)})`
              : roll < 0.8
                ? `  if (${name}.${pick(NAMES)} > ${Math.floor(next() * 1000)}) return ${pick(NAMES)}`
                : `  await ${name}.${pick(NAMES)}('${pick(NAMES)}-${Math.floor(next() * 1e6)}')`
    lines.push(line)
    size += line.length + 1
  }
  return lines.join('\n') + '\n'
}

/** Every file of the project, by path relative to it: `src-07/mod-3/file-12.ts`. */
function projectFiles(): string[] {
  const files: string[] = []
  for (let top = 0; top < TOP_FOLDERS; top++) {
    for (let sub = 0; sub < SUB_FOLDERS; sub++) {
      for (let n = 0; n < FILES_PER_FOLDER; n++) {
        files.push(`src-${String(top).padStart(2, '0')}/mod-${sub}/file-${n}.ts`)
      }
    }
  }
  return files
}

/** Writes the same bytes into each of `roots` (the checkpointed folder and the plain repo). */
async function writeBoth(roots: readonly string[], file: string, text: string): Promise<void> {
  for (const root of roots) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true })
    await writeFile(path.join(root, file), text)
  }
}

/** The project, twice: 10,000 files in 20 x 10 folders, and an ignored `node_modules/`. */
async function generate(roots: readonly string[], files: readonly string[]): Promise<number> {
  const next = random(16)
  let total = 0
  for (const file of files) {
    const text = sourceText(next, Math.round(MEAN_FILE_BYTES * (0.2 + 1.6 * next())))
    total += text.length
    await writeBoth(roots, file, text)
  }
  await writeBoth(roots, '.gitignore', 'node_modules/\n*.log\n')
  for (let n = 0; n < 20; n++) {
    await writeBoth(roots, `node_modules/left-pad-${n}/index.js`, sourceText(next, 2048))
  }
  await writeBoth(roots, 'build.log', 'ignored\n')
  return total
}

/** A git repository of the ordinary kind, run with nobody's config, as a person's would be. */
function plainGit(repo: string, args: readonly string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: repo,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1'
  }
  const full = ['-c', 'user.name=Bench', '-c', 'user.email=bench@mecatl.invalid', ...args]
  // From a small process, as a person's shell runs git: the baseline does not pay for the
  // memory this benchmark holds.
  const request = { file: 'git', args: full, cwd: repo, env, binary: false, maxBuffer: 64 << 20 }
  return plainSpawner.run(request).then(({ code, message, stdout, stderr }) => {
    if (code !== null) throw new Error(`git ${args[0] ?? ''} failed: ${String(stderr) || message}`)
    return String(stdout)
  })
}

const plainSpawner = new SmallSpawner()

/** `git add -A && git commit -q -m x`, two processes as a shell would run them. */
async function plainCommit(repo: string): Promise<void> {
  await plainGit(repo, ['add', '-A'])
  await plainGit(repo, ['commit', '-q', '-m', 'x'])
}

/**
 * Writes back what the page cache holds: the 200 MB just generated would otherwise be flushed
 * during whichever first commit runs first, and bill it for the other's writes.
 */
function settle(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('sync', (error) => (error ? reject(error) : resolve()))
  })
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - start) / 1e6
}

function middle(times: readonly number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size
  }
  return total
}

function verdict(met: boolean): string {
  return met ? 'met' : 'MISSED'
}

/**
 * The checkpoint store on a generated project of 10,000 files (about 100 MB), beside
 * `git add -A && git commit -q` in a plain repository of the same tree, in the same run: the
 * first checkpoint, an incremental one after 3 files changed, the store's growth over 100
 * checkpoints of one changed 10 KB file, and a restore of 3 files.
 */
/**
 * What the app's main process holds (sessions, the window's state): hundreds of megabytes. A
 * program forked from such a process costs more the bigger it is, so the figures are measured
 * holding this much, the same whatever ran before in the run.
 */
const HELD_BYTES = 300 * MB

export async function benchCheckpoints(dir: string): Promise<void> {
  const held = Array.from({ length: HELD_BYTES / MB }, () => Buffer.alloc(MB, 1))
  const base = path.join(dir, 'checkpoints-bench')
  const project = path.join(base, 'project')
  const plain = path.join(base, 'plain')
  try {
    const files = projectFiles()
    const roots = [project, plain]
    const total = await generate(roots, files)
    console.log(
      `checkpoints: ${files.length.toLocaleString('en')} files, ${(total / MB).toFixed(1)} MiB, ` +
        `${ROUNDS} rounds per timed figure, ${held.length} MB held as the app holds it`
    )
    const store = new ShadowStore({ root: path.join(base, 'data'), workspace: project })
    // Both repositories are created before the clock starts: `git init` is not the commit.
    await store.list()
    await plainGit(plain, ['init', '-q'])

    await settle()
    const first = await time(() => store.take('first', 'bench'))
    await settle()
    const firstPlain = await time(() => plainCommit(plain))
    report('checkpoints: first checkpoint', first, 'plain git add -A && commit', firstPlain)

    // Each round rewrites 3 files no earlier round touched, in both trees, then times both.
    let cursor = 0
    const rewrite = async (count: number, seed: number): Promise<string[]> => {
      const next = random(seed)
      const changed = files.slice(cursor, cursor + count)
      if (changed.length < count) throw new Error('checkpoints bench: ran out of files to change')
      cursor += count * 37
      for (const file of changed) await writeBoth(roots, file, sourceText(next, MEAN_FILE_BYTES))
      return changed
    }
    const takes: number[] = []
    const commits: number[] = []
    // Round 0 is a warm-up, dropped: git re-hashes files written in the same second as its index.
    for (let round = 0; round <= ROUNDS; round++) {
      await rewrite(3, 1000 + round)
      // Written back first, and taken in turns first: neither side is billed for the other's
      // writes (or an earlier benchmark's, in a full run).
      await settle()
      let take = 0
      let commit = 0
      if (round % 2 === 0) {
        take = await time(() => store.take(`round ${round}`, 'bench'))
        commit = await time(() => plainCommit(plain))
      } else {
        commit = await time(() => plainCommit(plain))
        take = await time(() => store.take(`round ${round}`, 'bench'))
      }
      if (round > 0) {
        takes.push(take)
        commits.push(commit)
      }
    }
    const incremental = middle(takes)
    const incrementalPlain = middle(commits)
    report(
      'checkpoints: incremental, 3 files changed',
      incremental,
      'plain git add -A && commit',
      incrementalPlain
    )
    console.log(
      `  target: under ${INCREMENTAL_TARGET_MS} ms and no slower than the plain commit: ` +
        `${verdict(incremental < INCREMENTAL_TARGET_MS && incremental <= incrementalPlain)} ` +
        `(${incremental.toFixed(2)} ms, ratio ${(incremental / incrementalPlain).toFixed(3)})`
    )

    await benchGrowth(store, plain, rewrite)
    await benchRestore(store, plain, rewrite)
  } finally {
    await rm(base, { recursive: true, force: true })
  }
}

type Rewrite = (count: number, seed: number) => Promise<string[]>

/**
 * Bytes on disk added by 100 checkpoints of one changed 10 KB file, beside the plain repository's
 * 100 commits. Both start packed, so the figure is what those checkpoints add, not the first
 * one's loose objects; then measured as written (loose) and again after compaction.
 */
async function benchGrowth(store: ShadowStore, plain: string, rewrite: Rewrite): Promise<void> {
  await store.compact()
  await plainGit(plain, ['gc', '-q'])
  const storeBefore = await store.sizeBytes()
  const plainBefore = await folderBytes(path.join(plain, '.git'))
  for (let n = 0; n < GROWTH_CHECKPOINTS; n++) {
    await rewrite(1, 5000 + n)
    await store.take(`growth ${n}`, 'bench')
    await plainCommit(plain)
  }
  const storeLoose = (await store.sizeBytes()) - storeBefore
  const plainLoose = (await folderBytes(path.join(plain, '.git'))) - plainBefore
  await store.compact()
  await plainGit(plain, ['gc', '-q'])
  const storePacked = (await store.sizeBytes()) - storeBefore
  const plainPacked = (await folderBytes(path.join(plain, '.git'))) - plainBefore
  reportAmount(
    'checkpoints: growth, 100 x 10 KB, as written',
    storeLoose / MB,
    'MB',
    'plain repo, 100 commits',
    plainLoose / MB
  )
  reportAmount(
    'checkpoints: growth, after compact()',
    storePacked / MB,
    'MB',
    'plain repo, after git gc',
    plainPacked / MB
  )
  // The app compacts as retention maintenance; the target is judged on the store as written
  // when that meets it, and on the compacted store only when it does not.
  const judged = storeLoose < GROWTH_TARGET_BYTES ? 'as written' : 'after compact()'
  const figure = storeLoose < GROWTH_TARGET_BYTES ? storeLoose : storePacked
  console.log(
    `  target: under ${GROWTH_TARGET_BYTES / MB} MB, judged ${judged}: ` +
      `${verdict(figure < GROWTH_TARGET_BYTES)} (${(figure / MB).toFixed(2)} MB)`
  )
}

/**
 * A restore of 3 files changed since the newest checkpoint, beside `git checkout <commit> -- 3
 * paths`. Each restore is checked: a fast one that does not put the bytes back is no figure.
 */
async function benchRestore(store: ShadowStore, plain: string, rewrite: Rewrite): Promise<void> {
  const head = (await plainGit(plain, ['rev-parse', 'HEAD'])).trim()
  const restores: number[] = []
  const checkouts: number[] = []
  for (let round = 0; round <= ROUNDS; round++) {
    const checkpoint = await store.take(`before restore ${round}`, 'bench')
    const changed = await rewrite(3, 9000 + round)
    await settle()
    const restore = await time(() => store.restore(checkpoint.id, changed, 'bench'))
    const checkout = await time(() => plainGit(plain, ['checkout', head, '--', ...changed]))
    for (const file of changed) {
      const want = await plainGit(plain, ['show', `${head}:${file}`])
      const got = await readFile(path.join(store.workspace, file), 'utf8')
      if (got !== want) throw new Error(`checkpoints bench: restore did not bring ${file} back`)
    }
    if (round > 0) {
      restores.push(restore)
      checkouts.push(checkout)
    }
  }
  const restore = middle(restores)
  report('checkpoints: restore 3 files', restore, 'git checkout <id> -- 3 paths', middle(checkouts))
  console.log(
    `  target: under ${RESTORE_TARGET_MS} ms: ` +
      `${verdict(restore < RESTORE_TARGET_MS)} (${restore.toFixed(2)} ms)`
  )
}
