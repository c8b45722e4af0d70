import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { repoRoot } from '../../../testing/cli-runner'
import { alive } from '../../../testing/shell-harness'
import { JobManager } from './job-manager'
import { killLeftovers } from '../../../testing/processes'

let dir: string
let jobs: JobManager
/** Every pid a test learned, killed afterwards so a failing test leaves nothing running. */
let seen: number[]

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-leftovers-')))
  jobs = new JobManager({ tempBase: dir })
  seen = []
})

afterEach(async () => {
  await jobs.dispose()
  killLeftovers(seen)
  await rm(dir, { recursive: true, force: true })
})

/** A sleeper that writes its own pid to orphan.pid and then cannot be reached by the usual. */
const SLEEPER = `bash -c 'echo $$ > orphan.pid; exec sleep 300'`

/** Ways a command leaves a process behind that escapes its shell's end. */
const leftovers: Record<string, string> = {
  // A new session and process group: neither the group nor the pty's session holds it.
  'a setsid child': `setsid ${SLEEPER} &`,
  // Its parent exits at once, so it is nobody's child in the job's tree.
  'a double-forked child': `( (${SLEEPER} &) & )`,
  // A daemon's way: fork, a new session, fork again, and the middle one exits.
  'a daemon-style double fork': `(setsid sh -c '(bash -c "echo \\$\\$ > orphan.pid; exec sleep 300" &)' &)`,
  // Deaf to the hang-up the terminal sends and to a polite stop.
  'a child that ignores SIGHUP and SIGTERM': `nohup bash -c "trap '' HUP TERM; echo \\$\\$ > orphan.pid; exec sleep 300" >/dev/null 2>&1 &`,
  // Both at once: its own session, and deaf.
  'a setsid child that ignores SIGHUP and SIGTERM': `setsid bash -c "trap '' HUP TERM; echo \\$\\$ > orphan.pid; exec sleep 300" &`
}

/** The command, then a wait until the leftover has written its pid. */
function launching(leftover: string, then: string): string {
  return `${leftover}\nwhile [ ! -s orphan.pid ]; do sleep 0.01; done; ${then}`
}

/** The leftover's pid; `running` when the job is still running, so the leftover must be too. */
async function orphanPid(running = true): Promise<number> {
  const file = path.join(dir, 'orphan.pid')
  while (!existsSync(file) || !readFileSync(file, 'utf8').trim()) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const pid = Number(readFileSync(file, 'utf8').trim())
  seen.push(pid)
  if (running) expect(alive(pid)).toBe(true)
  return pid
}

/** `text` as one word for bash. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

function start(command: string, background: boolean): ReturnType<JobManager['start']> {
  return jobs.start({
    sessionId: 's1',
    workspace: dir,
    callId: null,
    command,
    background,
    timeoutMs: null
  })
}

describe.each(Object.entries(leftovers))('nothing outlives its job: %s', (_name, leftover) => {
  it('is gone once a foreground command that left it has returned', async () => {
    const job = await start(launching(leftover, 'echo started'), false)
    await job.finished
    expect(job.ring.tail().toString()).toContain('started')
    const pid = await orphanPid(false)
    // `finished` resolves only after the kills are done: no waiting, no polling.
    expect(alive(pid)).toBe(false)
  })

  it('is gone once the background job that left it is stopped', async () => {
    const job = await start(launching(leftover, 'sleep 300'), true)
    const pid = await orphanPid()
    expect(jobs.stop(job.id, 'model')).toBe(true)
    await job.finished
    expect(job.state).toBe('stopped')
    expect(alive(pid)).toBe(false)
  })

  it('is gone once the job manager is disposed, as at the end of a run', async () => {
    await start(launching(leftover, 'sleep 300'), true)
    const pid = await orphanPid()
    await jobs.dispose()
    expect(alive(pid)).toBe(false)
  })
})

describe('nothing outlives its job, under pressure', () => {
  it('catches a fork loop racing the kills', async () => {
    // A new session that keeps forking short-lived children, each a fresh pid the scan has not
    // seen, and each writing its pid down before it sleeps.
    const job = await start(
      launching(
        `setsid bash -c 'echo $$ > orphan.pid; while :; do (echo $BASHPID >> forks.pid; exec sleep 300) & sleep 0.001; done' &`,
        'sleep 0.3; echo started'
      ),
      false
    )
    await job.finished
    const pids = [
      await orphanPid(false),
      ...readFileSync(path.join(dir, 'forks.pid'), 'utf8').split('\n').filter(Boolean).map(Number)
    ]
    seen.push(...pids)
    expect(pids.length).toBeGreaterThan(2)
    expect(pids.filter(alive)).toEqual([])
  })

  it('kills a shell that ignores SIGTERM, and dispose waits for it', async () => {
    await start("trap '' HUP TERM; echo $$ > orphan.pid; sleep 300", true)
    const pid = await orphanPid()
    await jobs.dispose()
    expect(alive(pid)).toBe(false)
  })

  it('ends the jobs of a Mecatl run inside a job with that job', async () => {
    // The inner Mecatl (this project's tests run from Shell, say) gives its jobs a marker of
    // its own; the outer job's end must reach them as well.
    const inner = launching(`setsid ${SLEEPER} &`, 'sleep 300')
    const owner = path.join(repoRoot, 'testing/job-owner.mjs')
    const job = await start(
      `cd ${quote(repoRoot)} && ${quote(process.execPath)} ${quote(owner)} ${quote(dir)} ${quote(inner)}`,
      true
    )
    const pid = await orphanPid()
    expect(jobs.stop(job.id, 'model')).toBe(true)
    await job.finished
    expect(alive(pid)).toBe(false)
  })

  it('leaves alone what another job of the same manager started', async () => {
    const other = await start(launching(`setsid ${SLEEPER} &`, 'sleep 300'), true)
    const pid = await orphanPid()
    const job = await start('true', false)
    await job.finished
    expect(other.running).toBe(true)
    expect(alive(pid)).toBe(true)
  })
})
