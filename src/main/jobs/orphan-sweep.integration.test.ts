import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore } from '../core'
import { repoRoot } from '../../../testing/cli-runner'
import { alive } from '../../../testing/shell-harness'
import { JOB_MARKER_VAR, selfOwner } from './job-marker'
import { sweepOrphanedJobs } from './orphan-sweep'
import { readProcStat } from './process-group'
import { killLeftovers } from '../../../testing/processes'

let dir: string
/** Every process a test started or learned of, killed afterwards so a failure leaks nothing. */
let seen: number[]

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-orphans-')))
  seen = []
})

afterEach(async () => {
  killLeftovers(seen)
  await rm(dir, { recursive: true, force: true })
})

const OWNER = path.join(repoRoot, 'testing/job-owner.mjs')

/** A `sleep 300` with `marker` (or none) in its environment. */
function sleeper(marker: string | null): ChildProcess {
  const env = { ...process.env }
  delete env[JOB_MARKER_VAR]
  if (marker !== null) env[JOB_MARKER_VAR] = marker
  const child = spawn('sleep', ['300'], { env, stdio: 'ignore' })
  if (child.pid === undefined) throw new Error('sleep did not start')
  seen.push(child.pid)
  return child
}

/** A marker entry naming the process `pid` that started at `startTime`, as its job's token. */
function entryFor(pid: number, startTime: number): string {
  return `${pid}.${startTime}.${selfOwner().pidNamespace}.${randomBytes(8).toString('hex')}`
}

function startTimeOf(pid: number): number {
  const stat = readProcStat(pid)
  if (!stat) throw new Error(`no process ${pid}`)
  return stat.startTime
}

/** A process that ran and is gone, with its pid and start time: the owner a killed Mecatl was. */
async function deadOwner(): Promise<{ pid: number; startTime: number }> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' })
  const pid = child.pid ?? 0
  const startTime = startTimeOf(pid)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
  return { pid, startTime }
}

async function pidFrom(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, 'utf8').trim()) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const pid = Number(readFileSync(file, 'utf8').trim())
  seen.push(pid)
  return pid
}

describe('the start-time sweep of what a killed Mecatl left running', () => {
  it('kills the leftovers of a SIGKILLed Mecatl, and nothing that is not proved orphaned', async () => {
    // A real Mecatl job: a foreground command with a child in a session of its own and a child
    // deaf to the hang-up the terminal sends when its Mecatl dies.
    const folder = path.join(dir, 'project')
    await mkdir(folder)
    const command = [
      `setsid bash -c 'echo $$ > setsid.pid; exec sleep 300' &`,
      `nohup bash -c "trap '' HUP TERM; echo \\$\\$ > deaf.pid; exec sleep 300" >/dev/null 2>&1 &`,
      'echo $$ > shell.pid; sleep 300'
    ].join('\n')
    const owner = spawn(process.execPath, [OWNER, folder, command], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit']
    })
    seen.push(owner.pid ?? 0)
    const exited = new Promise((resolve) => owner.once('exit', resolve))
    const orphans = [
      await pidFrom(path.join(folder, 'setsid.pid')),
      await pidFrom(path.join(folder, 'deaf.pid')),
      // The job's shell itself: with its terminal gone it may wait on its foreground child.
      await pidFrom(path.join(folder, 'shell.pid'))
    ]
    owner.kill('SIGKILL')
    await exited

    // What must stay: a process of a live owner's job, one without a marker, and one whose
    // marker is not one of ours.
    const liveOwner = sleeper(null)
    const liveOwnerPid = liveOwner.pid ?? 0
    const ofLiveOwner = sleeper(entryFor(liveOwnerPid, startTimeOf(liveOwnerPid)))
    const unmarked = sleeper(null)
    const foreign = sleeper('not-a-mecatl-marker')
    // What must go too: a marker naming a live pid that was reused (its start time differs).
    const reused = sleeper(entryFor(liveOwnerPid, startTimeOf(liveOwnerPid) + 1))

    const core = await createCore({
      dataDir: path.join(dir, 'home'),
      host: 'cli',
      interactive: false,
      userDir: path.join(dir, 'user'),
      jobs: { tempBase: dir }
    })
    // dispose waits for the sweep begun at start.
    await core.dispose()

    expect(orphans.filter(alive)).toEqual([])
    expect(alive(reused.pid ?? 0)).toBe(false)
    for (const kept of [liveOwner, ofLiveOwner, unmarked, foreign]) {
      expect(alive(kept.pid ?? 0)).toBe(true)
    }
  })

  it('never kills the processes of the job it runs inside, nor of an owner in another namespace', async () => {
    const gone = await deadOwner()
    const enclosing = entryFor(gone.pid, gone.startTime)
    const mate = sleeper(enclosing)
    const foreignNamespace = sleeper(
      `${gone.pid}.${gone.startTime}.${selfOwner().pidNamespace + 1}.${randomBytes(8).toString('hex')}`
    )
    const before = process.env[JOB_MARKER_VAR]
    process.env[JOB_MARKER_VAR] = enclosing
    let inside
    try {
      inside = await sweepOrphanedJobs()
    } finally {
      if (before === undefined) delete process.env[JOB_MARKER_VAR]
      else process.env[JOB_MARKER_VAR] = before
    }
    // Asked of what this sweep did, not of whether `mate` lives: a sweep by another test's core,
    // running alongside, rightly kills it (its owner is gone, and that core is not inside it).
    expect(inside.killed).not.toContain(mate.pid)
    expect(alive(foreignNamespace.pid ?? 0)).toBe(true)

    // Once this process no longer runs inside that job, its processes are orphans like any.
    await sweepOrphanedJobs()
    expect(alive(mate.pid ?? 0)).toBe(false)
    expect(alive(foreignNamespace.pid ?? 0)).toBe(true)
  })

  it('kills an orphan whose marker names a dead owner among live ones, even nested', async () => {
    const gone = await deadOwner()
    const liveOwner = sleeper(null)
    const liveOwnerPid = liveOwner.pid ?? 0
    const outer = entryFor(liveOwnerPid, startTimeOf(liveOwnerPid))
    const nested = sleeper(`${outer}:${entryFor(gone.pid, gone.startTime)}`)
    const onlyLive = sleeper(outer)
    await sweepOrphanedJobs()
    expect(alive(nested.pid ?? 0)).toBe(false)
    expect(alive(onlyLive.pid ?? 0)).toBe(true)
  })
})
