import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { JobSummary } from '../../shared/jobs'
import type { Job } from './job'
import { JobManager, KEPT_DISMISSED_JOBS, type StartRequest } from './job-manager'
import type { OutputBatch } from './output-stream'

let dir: string
let jobs: JobManager
let updates: JobSummary[]
let batches: Map<string, OutputBatch[]>
let dismissed: string[]

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-jobs-test-')))
  updates = []
  batches = new Map()
  dismissed = []
  jobs = new JobManager({
    tempBase: dir,
    events: {
      updated: (job) => updates.push(job),
      output: (id, batch) => batches.set(id, [...(batches.get(id) ?? []), batch]),
      dismissed: (id) => dismissed.push(id)
    }
  })
})

afterEach(async () => {
  await jobs.dispose()
  await rm(dir, { recursive: true, force: true })
})

function start(
  command: string,
  extra: Partial<StartRequest> = {}
): ReturnType<JobManager['start']> {
  return jobs.start({
    sessionId: 's1',
    workspace: dir,
    callId: null,
    command,
    background: true,
    timeoutMs: null,
    ...extra
  })
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10))

describe('JobManager output to the window', () => {
  it('pauses a flooding job while its viewer is behind, and loses nothing', async () => {
    const size = 3_000_000
    const job = await start(`head -c ${size} /dev/zero | tr '\\0' y; echo; echo DONE`)
    const snapshot = jobs.follow(job.id, 'window-1')
    expect(snapshot).not.toBeNull()

    // The viewer reads nothing: the job must stop being read, and so stop running ahead.
    while (!job.stream.isPaused) await tick()
    expect(job.running).toBe(true)
    const whilePaused = job.ring.totalBytes
    expect(whilePaused).toBeLessThan(size)

    // Acknowledge everything as it comes: the job runs to its end.
    let acked = 0
    while (job.running) {
      const sent = (batches.get(job.id) ?? []).reduce((n, b) => n + b.data.length, 0)
      if (sent > acked) jobs.ack(job.id, 'window-1', sent - acked)
      acked = sent
      await tick()
    }
    await job.finished
    const received =
      (snapshot?.data ?? '') + (batches.get(job.id) ?? []).map((b) => b.data).join('')
    expect(received).toBe(`${'y'.repeat(size)}\r\nDONE\r\n`)
    const seqs = (batches.get(job.id) ?? []).map((b) => b.seq)
    expect(seqs).toEqual(seqs.map((_, i) => (snapshot?.seq ?? 0) + i + 1))
  })

  it('sends a character cut between two writes whole', async () => {
    const job = await start("printf 'cost: \\342\\202'; sleep 0.2; printf '\\254 5\\n'")
    const snapshot = jobs.follow(job.id, 'window-1')
    await job.finished
    const received =
      (snapshot?.data ?? '') + (batches.get(job.id) ?? []).map((b) => b.data).join('')
    expect(received).toBe('cost: € 5\r\n')
  })

  it('announces a job, the local URL it prints, and how it ended', async () => {
    const job = await start("printf 'ready on \\033[1mhttp://localhost:4321/\\033[0m\\n'; exit 1")
    await job.finished
    const mine = updates.filter((u) => u.id === job.id)
    expect(mine[0]).toMatchObject({ state: 'running', command: expect.stringContaining('ready') })
    expect(mine.at(-1)).toMatchObject({
      state: 'failed',
      exitCode: 1,
      urls: [{ text: 'http://localhost:4321/', href: 'http://localhost:4321/' }]
    })
  })

  it('keeps finished jobs listed until the person dismisses them', async () => {
    const running = await start('sleep 30')
    const done = await start('true')
    await done.finished
    expect(jobs.list(dir).map((j) => j.id)).toEqual([running.id, done.id])
    expect(jobs.dismiss(running.id)).toBe(false)
    expect(jobs.dismiss(done.id)).toBe(true)
    expect(dismissed).toEqual([done.id])
    expect(jobs.list(dir).map((j) => j.id)).toEqual([running.id])
    expect(jobs.list('/elsewhere')).toEqual([])
  })

  it('keeps the output of the latest dismissed jobs for the model, and lets older ones go', async () => {
    const all: Job[] = []
    for (let n = 0; n <= KEPT_DISMISSED_JOBS; n++) {
      const job = await start(`echo output-${n}`)
      await job.finished
      expect(jobs.dismiss(job.id)).toBe(true)
      all.push(job)
    }
    const [oldest, ...kept] = all as [Job, ...Job[]]
    // The model never collected any of them: the newest still answer ShellStatus in full.
    kept.forEach((job, i) => {
      expect(jobs.backgroundJobs('s1')).toContain(job)
      expect(job.ring.tail().toString()).toContain(`output-${i + 1}`)
    })
    // The oldest left with its output, so a long day of watchers holds a bounded amount.
    expect(jobs.get(oldest.id)).toBeUndefined()
    expect(jobs.backgroundJobs('s1')).not.toContain(oldest)
    expect(oldest.ring.length).toBe(0)
  })

  it('stops a job with the person as the reason', async () => {
    const job = await start('sleep 30')
    expect(jobs.stop(job.id, 'person')).toBe(true)
    await job.finished
    expect(job.summary()).toMatchObject({ state: 'stopped', stopReason: 'stopped by the person' })
    expect(jobs.stop(job.id, 'person')).toBe(false)
  })

  it('builds the commands’ environment from an allowlist: nobody’s key passes unnamed', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: '/home/someone',
      LC_TIME: 'C',
      OPENAI_API_KEY: 'sk-openai',
      GITHUB_TOKEN: 'ghp-1',
      SOMETHING_ELSE: 'unlisted',
      GOPATH: '/go',
      DEPLOY_TOKEN: 'listed-by-name',
      LC_SECRET_TOKEN: 'looks-like-a-secret'
    }
    const allowlisted = new JobManager({
      tempBase: dir,
      env,
      envPolicy: () => ({
        passthrough: ['GOPATH', 'DEPLOY_TOKEN', 'OPENAI_API_KEY'],
        never: new Set(['OPENAI_API_KEY'])
      })
    })
    const job = await allowlisted.start({
      sessionId: 's1',
      workspace: dir,
      callId: null,
      command: 'env | sort',
      background: false,
      timeoutMs: null
    })
    await job.finished
    const seen = job.ring.tail().toString()
    expect(seen).toContain('HOME=/home/someone')
    expect(seen).toContain('LC_TIME=C')
    expect(seen).toContain('GOPATH=/go')
    // Listed by name by a person: passes, though it looks like a secret.
    expect(seen).toContain('DEPLOY_TOKEN=listed-by-name')
    // A key Mecatl itself uses never passes, even when listed; the rest were never named.
    for (const hidden of ['sk-openai', 'ghp-1', 'unlisted', 'looks-like-a-secret']) {
      expect(seen).not.toContain(hidden)
    }
    await allowlisted.dispose()
  })
})
