import { spawn } from 'node:child_process'
import { chmod, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, storePath } from '../store/store'
import { cliPath, ensureCliBuilt, makeTempDir, type CliResult } from '../../../testing/cli-runner'
import { runCliInProcess } from '../../../testing/cli-in-process'

// A database that is damaged, or that this user cannot open, stops a command with one sentence
// naming the file and what to do; the file is left exactly as it was.
let dir: string
let workspace: string

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('corrupt-database')
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  await writeFile(path.join(workspace, 'notes.txt'), 'notes\n')
}, 180_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

/** A data folder whose mecatl.db is made by `place`. */
async function homeWith(name: string, place: (file: string) => Promise<void>): Promise<string> {
  const home = path.join(dir, name)
  await mkdir(home)
  await place(storePath(home))
  return home
}

/** A real database of this build, cut to half its length. */
async function truncatedDatabase(file: string): Promise<void> {
  const store = openStore(path.dirname(file))
  store.close()
  await truncate(file, Math.floor((await stat(file)).size / 2))
}

interface Snapshot {
  bytes: Buffer | null
  mtimeMs: number
  listing: string[]
}

async function snapshot(file: string): Promise<Snapshot> {
  const stats = await stat(file)
  return {
    bytes: stats.isFile() ? await readFile(file) : null,
    mtimeMs: stats.mtimeMs,
    listing: (await readdir(path.dirname(file))).sort()
  }
}

function expectOneSentence(result: CliResult, file: string, what: RegExp): void {
  expect(result.code).toBe(1)
  expect(result.stdout).toBe('')
  const lines = result.stderr.trimEnd().split('\n')
  expect(lines, result.stderr).toHaveLength(1)
  expect(lines[0]).toContain(`mecatl: the database ${file} `)
  expect(lines[0]).toMatch(what)
  expect(result.stderr).not.toMatch(/\n\s+at |unexpected failure|SqliteError/)
}

const damaged: [string, (file: string) => Promise<void>, RegExp][] = [
  [
    'random bytes',
    (file) => writeFile(file, randomBytes(64 * 1024)),
    /is damaged: it is not a database/
  ],
  ['a truncated database', truncatedDatabase, /is cut short/],
  ['a folder', (file) => mkdir(file), /is a folder/]
]

describe('a damaged database', () => {
  it.each(damaged)(
    '(%s) is one sentence, and the file is left as it was',
    async (name, place, what) => {
      const home = await homeWith(name.replaceAll(' ', '-'), place)
      const file = storePath(home)
      const before = await snapshot(file)
      for (const command of [
        ['sessions', 'list', '--workspace', workspace],
        ['memory', 'search', 'x', '--workspace', workspace],
        ['call', 'Read', '{"path":"notes.txt"}', '--workspace', workspace, '--yes']
      ]) {
        const result = await runCliInProcess(command, { home })
        expectOneSentence(result, file, what)
        expect(result.stderr).toMatch(/move it away|put back a backup/)
      }
      expect(await snapshot(file)).toEqual(before)
    }
  )
})

describe('a database this user cannot open', () => {
  it('is one sentence saying so, and the file is left as it was', async () => {
    const home = await homeWith('unreadable', async (file) => {
      const store = openStore(path.dirname(file))
      store.close()
      await chmod(file, 0o600)
    })
    const file = storePath(home)
    // Root opens any file, so as root the command runs as nobody, who cannot open it.
    const asRoot = process.getuid?.() === 0
    if (asRoot) {
      await chmod(dir, 0o755)
      await chmod(home, 0o777)
    } else {
      await chmod(file, 0o000)
    }
    const before = await snapshot(file)
    const result = await new Promise<CliResult>((resolve) => {
      const child = spawn(process.execPath, [cliPath, 'sessions', 'list'], {
        cwd: workspace,
        env: { PATH: process.env.PATH, MECATL_HOME: home },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {})
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
    })
    expectOneSentence(result, file, /cannot be opened by this user/)
    expect(await snapshot(file)).toEqual(before)
  }, 30_000)
})
