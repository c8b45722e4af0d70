// What a Mecatl killed outright (SIGKILL) left of its MCP servers is ended: in a PID namespace
// (its own, or the sandbox's) at once, since the namespace dies with Mecatl; by its marker alone
// at the next start, by the sweep a new core runs. As this user and, when the tests run as root,
// as an unprivileged one (nobody), for whom bubblewrap makes a user namespace too.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { chown, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../core'
import { selfOwner } from '../jobs/job-marker'
import { repoRoot } from '../../../testing/cli-runner'
import {
  killRecorded,
  parseSpawnRecords,
  stillRunning,
  type LeftoverRecord,
  type SpawnRecords
} from '../../../testing/leftover-records'
import { spawningServer } from '../../../testing/mcp-test-servers'

const OWNER = path.join(repoRoot, 'testing/mcp-owner.mjs')
const NOBODY = 65534

const modes = [
  { mode: 'in a PID namespace of its own', sandbox: false, flags: [], namespaced: true },
  {
    mode: 'by its marker alone',
    sandbox: false,
    flags: ['--no-pid-namespace'],
    namespaced: false
  },
  { mode: 'sandboxed', sandbox: true, flags: [], namespaced: true }
]

const users = [
  { who: 'this user', uid: null as number | null },
  ...(process.getuid?.() === 0 ? [{ who: 'an unprivileged user', uid: NOBODY }] : [])
]

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Place {
  dir: string
  dataDir: string
  workspace: string
  home: string
}

async function place(uid: number | null): Promise<Place> {
  // Off /tmp, which a sandbox replaces with its own, so the records land where the test reads.
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-killed-owner-')))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const at = {
    dir,
    dataDir: path.join(dir, 'data'),
    workspace: path.join(dir, 'project'),
    home: path.join(dir, 'home')
  }
  for (const folder of [at.dataDir, at.workspace, at.home]) await mkdir(folder)
  if (uid !== null) {
    for (const folder of [dir, at.dataDir, at.workspace, at.home]) await chown(folder, uid, uid)
  }
  return at
}

/** The owner script as `uid` (or this user), with a bare environment of its own. */
function owner(args: string[], at: Place, uid: number | null): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [OWNER, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: at.home, LANG: 'C.UTF-8' },
    ...(uid === null ? {} : { uid, gid: uid }),
    stdio: ['pipe', 'pipe', 'pipe']
  })
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return child
}

/** The first line `child` prints, or its stderr in an error when it ends or takes too long. */
function firstLine(child: ChildProcessWithoutNullStreams, what: string): Promise<string> {
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: no answer in 60 s: ${stderr}`)),
      60_000
    )
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer)
      resolve(line)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited ${String(code)}: ${stderr}`))
    })
  })
}

async function serve(
  mode: (typeof modes)[number],
  at: Place,
  uid: number | null
): Promise<{ child: ChildProcessWithoutNullStreams; records: SpawnRecords }> {
  const settings = {
    mcp: [spawningServer(at.workspace, 'spawning', { sandbox: mode.sandbox })],
    sandbox: {
      readable: [path.join(repoRoot, 'node_modules'), path.join(repoRoot, 'testing')]
    }
  }
  const child = owner(
    ['serve', at.dataDir, at.workspace, JSON.stringify(settings), ...mode.flags],
    at,
    uid
  )
  const records = parseSpawnRecords(await firstLine(child, 'the owner'))
  const all = [records.server, ...records.leftovers]
  cleanups.push(() => killRecorded(all))
  expect(stillRunning(all)).toHaveLength(4)
  const ours = `pid:[${selfOwner().pidNamespace}]`
  expect(records.leftovers.every((record) => record.namespace !== ours)).toBe(mode.namespaced)
  return { child, records }
}

async function killed(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

/** Polls until none of `records` runs, for at most about 5 s; returns those still running. */
async function gone(records: readonly LeftoverRecord[]): Promise<LeftoverRecord[]> {
  for (let i = 0; i < 250 && stillRunning(records).length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return stillRunning(records)
}

/** What a new Mecatl on the same data directory does at start: a core, or the sweep as `uid`. */
async function startAgain(at: Place, uid: number | null): Promise<void> {
  if (uid !== null) {
    await firstLine(owner(['sweep'], at, uid), 'the sweep')
    return
  }
  const core = await createCore({
    dataDir: at.dataDir,
    host: 'cli',
    interactive: false,
    userDir: path.join(at.dir, 'user'),
    jobs: { tempBase: at.dir }
  })
  // The sandbox's self-test, begun at start too, writes into the data folder: let it finish
  // before the folder goes. dispose waits for the sweep begun at start.
  await core.sandbox.prepare(core.settings.snapshot())
  await core.dispose()
}

describe.each(users)('MCP servers of a Mecatl run by $who', ({ uid }) => {
  describe.each(modes)('$mode', (mode) => {
    it('leave nothing running once Mecatl is killed and started again', async () => {
      const at = await place(uid)
      const { child, records } = await serve(mode, at, uid)
      const all = [records.server, ...records.leftovers]
      await killed(child)
      if (mode.namespaced) {
        // The namespace goes with Mecatl (--die-with-parent): nothing waits for a next start.
        expect(await gone(all)).toEqual([])
      } else if (uid !== null) {
        // Without a namespace only the marker finds them, once a new Mecatl is there to look.
        // (Asked of another user's leftovers only: a core of a test file running alongside
        // sweeps this user's, rightly, and may have done so already.)
        expect(stillRunning(records.leftovers)).toHaveLength(3)
      }
      await startAgain(at, uid)
      expect(stillRunning(all)).toEqual([])
    })

    // For this user, server-leftovers.integration.test.ts proves a stop in every mode; here the
    // same for another user, whose servers run in a user namespace bubblewrap makes.
    if (uid !== null) {
      it('leave nothing running once their server is stopped', async () => {
        const at = await place(uid)
        const { child, records } = await serve(mode, at, uid)
        child.stdin.write('stop\n')
        expect(await firstLine(child, 'the stop')).toBe('stopped')
        // Gone by the time the stop returned: it waits for them.
        expect(stillRunning([records.server, ...records.leftovers])).toEqual([])
      })
    }
  })
})
