// `run` on a data directory whose disk cannot take the session's record: the kernel's own limit
// on file size (RLIMIT_FSIZE, set with the shell's `ulimit -f`) makes SQLite's writes to its
// log fail as they would on a full or failing disk. The Write the model asks for must not run,
// the reason must be printed, and the exit code must say the run failed.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeModelServer, type FakeModelServer } from '../../../testing/fake-model-server'
import { openStore } from '../store/store'
import { cliPath, ensureCliBuilt, makeTempDir, type CliResult } from '../../../testing/cli-runner'

/** What SQLite may write to a file of the data directory, in KiB (`ulimit -f` units in bash). */
const FILE_LIMIT_KIB = 256
/** Far more than the limit, so recording the reply cannot succeed. */
const LONG_REPLY = 'words that will not fit on this disk '.repeat(40_000)

let dir: string
let fake: FakeModelServer

beforeAll(async () => {
  ensureCliBuilt()
  dir = await makeTempDir('run-unrecorded')
  fake = await startFakeModelServer()
}, 120_000)
afterAll(async () => {
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

/** `mecatl <args>` under `ulimit -f`, with only PATH and MECATL_HOME from this process. */
function limitedRun(args: string[], home: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        `ulimit -f ${FILE_LIMIT_KIB} && exec "$0" "$@"`,
        process.execPath,
        cliPath,
        ...args
      ],
      {
        env: { PATH: process.env.PATH, MECATL_HOME: home },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0
        resolve({ code, stdout, stderr })
      }
    )
  })
}

describe('mecatl run on a disk that cannot take the record', () => {
  it('does not run the Write, says why, and exits 1', async () => {
    const home = path.join(dir, 'home')
    const workspace = path.join(dir, 'project')
    await mkdir(workspace)
    // The database exists and is migrated: only the session's own writes meet the limit.
    openStore(home).close()
    fake.setScript([
      {
        text: LONG_REPLY,
        toolCalls: [{ name: 'Write', input: { path: 'written.txt', content: 'must not exist\n' } }]
      },
      { text: 'Wrote it.' }
    ])
    const result = await limitedRun(
      [
        'run',
        'write the file',
        '--workspace',
        workspace,
        '--base-url',
        fake.openaiBaseUrl,
        '--model',
        'fake-model',
        '--mode',
        'allow'
      ],
      home
    )
    expect(result.stderr).toContain(
      `error: cannot record this session: the disk holding ${home} failed a write (SQLITE_IOERR`
    )
    expect(result.code).toBe(1)
    expect(existsSync(path.join(workspace, 'written.txt'))).toBe(false)
    expect(fake.chatRequests().length).toBeLessThanOrEqual(1)
    // One sentence says it; the store's own errors are not dumped on top of it.
    expect(result.stderr).not.toContain('SqliteError')
  })
})
