// Nothing outlives a confined job either: under bubblewrap a command runs in a PID namespace of
// its own, so what escapes its shell's session and group (a `setsid` child, a double fork whose
// middle exits, a child deaf to SIGTERM and SIGHUP, one that is both) ends with the job, whether
// the command returns, is stopped, or the core is disposed. Unconfined jobs end theirs by the
// marker: jobs/job-leftovers.integration.test.ts; the plain setsid case confined is in
// shell-sandbox.integration.test.ts.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { createCore, type Core } from '../core'
import type { Job } from '../jobs/job'
import { selfOwner } from '../jobs/job-marker'
import {
  killRecorded,
  parseRecord,
  RECORD_THEN_SLEEP,
  stillRunning,
  type LeftoverRecord
} from '../../../testing/leftover-records'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Each way out of the job's tree, as a command line that starts it in the background. */
const LEFTOVERS: Record<string, string> = {
  setsid: 'setsid sh record.sh setsid.rec &',
  doubleFork: '( (sh record.sh double-fork.rec &) & )',
  deaf: `nohup sh -c "trap '' HUP TERM; exec sh record.sh deaf.rec" >/dev/null 2>&1 &`,
  setsidDeaf: `setsid sh -c "trap '' HUP TERM; exec sh record.sh setsid-deaf.rec" &`
}
const FILES = ['setsid.rec', 'double-fork.rec', 'deaf.rec', 'setsid-deaf.rec']

/** The command: every leftover, a wait until all have written their records, then `then`. */
function command(then: string): string {
  const ready = FILES.map((file) => `[ -s ${file} ]`).join(' && ')
  return [...Object.values(LEFTOVERS), `until ${ready}; do sleep 0.01; done; ${then}`].join('\n')
}

interface Setup {
  core: Core
  workspace: string
  dispose(): Promise<void>
}

async function setup(): Promise<Setup> {
  // Off /tmp, which is the sandbox's own: the records land where the test reads them.
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-confined-leftovers-')))
  const workspace = path.join(dir, 'project')
  const home = path.join(dir, 'home')
  await mkdir(workspace)
  await mkdir(home)
  await writeFile(path.join(workspace, 'record.sh'), RECORD_THEN_SLEEP)
  const config = path.join(dir, 'settings.yaml')
  await writeFile(config, YAML.stringify({ permissions: { mode: 'allow' } }))
  const core = await createCore({
    dataDir: path.join(dir, 'data'),
    configPath: config,
    host: 'cli',
    interactive: false,
    env: { ...process.env, HOME: home },
    jobs: { tempBase: dir }
  })
  let disposed: Promise<void> | null = null
  // The sandbox's self-test is awaited below, before any command: nothing of it is left to wait.
  const dispose = (): Promise<void> => (disposed ??= core.dispose())
  cleanups.push(async () => {
    await dispose()
    await rm(dir, { recursive: true, force: true })
  })
  expect(await core.sandbox.prepare(core.settings.snapshot())).toMatchObject({ state: 'confined' })
  return { core, workspace, dispose }
}

/**
 * Starts `line` as Shell would under the sandbox, without its gate: the gate rightly asks a person
 * before a shell runs a script file, and here nobody is there to.
 */
function start(s: Setup, line: string, background: boolean): Promise<Job> {
  const settings = s.core.settings.snapshot()
  return s.core.jobs.start({
    sessionId: 's1',
    workspace: s.workspace,
    callId: null,
    command: line,
    background,
    timeoutMs: null,
    confine: (tmp) => s.core.sandbox.confine(settings, s.workspace, tmp)
  })
}

/** The leftovers' records, once all are written (bounded), each checked to run confined. */
async function records(workspace: string): Promise<LeftoverRecord[]> {
  const files = FILES.map((file) => path.join(workspace, file))
  for (let i = 0; i < 1500 && !files.every(existsSync); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const found = files.map((file) => parseRecord(readFileSync(file, 'utf8')))
  cleanups.push(() => killRecorded(found))
  // In the job's own namespace, not ours: the sandbox made one.
  const ours = `pid:[${selfOwner().pidNamespace}]`
  for (const record of found) expect(record.namespace).not.toBe(ours)
  return found
}

describe('nothing outlives a confined job', () => {
  it('once a foreground command that left them has returned', async () => {
    const s = await setup()
    const job = await start(s, command('echo started'), false)
    await job.finished
    expect(job.ring.tail().toString()).toContain('started')
    // Read after the job's end: the records name processes that are gone, by their namespace.
    expect(stillRunning(await records(s.workspace))).toEqual([])
  })

  it('once the background job that left them is stopped', async () => {
    const s = await setup()
    const job = await start(s, command('sleep 1000'), true)
    const left = await records(s.workspace)
    expect(stillRunning(left)).toHaveLength(4)
    expect(s.core.jobs.stop(job.id, 'person')).toBe(true)
    await job.finished
    expect(job.state).toBe('stopped')
    expect(stillRunning(left)).toEqual([])
  })

  it('once the core is disposed, as when Mecatl quits', async () => {
    const s = await setup()
    await start(s, command('sleep 1000'), true)
    const left = await records(s.workspace)
    expect(stillRunning(left)).toHaveLength(4)
    await s.dispose()
    expect(stillRunning(left)).toEqual([])
  })
})
