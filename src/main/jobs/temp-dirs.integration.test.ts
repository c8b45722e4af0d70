import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobTempDirs } from './temp-dirs'

let base: string

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-tmpbase-')))
})

afterEach(() => {
  // GNU rm gets through trees deeper than a path can name, which these tests make.
  spawnSync('rm', ['-rf', base])
})

function leaseOf(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(dir, '.mecatl-lease.json'), 'utf8')) as Record<
    string,
    unknown
  >
}

describe('JobTempDirs', () => {
  it('gives each command its own leased TMPDIR and removes both when it ends', async () => {
    const dirs = new JobTempDirs(base)
    const a = await dirs.create('bashcmd-1')
    const b = await dirs.create('bashcmd-2')
    expect(a.tmp).not.toBe(b.tmp)
    expect(path.dirname(a.dir)).toBe(path.dirname(b.dir))
    expect(await readdir(a.tmp)).toEqual([])
    // The lease names this process (pid and start time) and the job, and sits beside TMPDIR.
    expect(leaseOf(a.dir)).toMatchObject({
      app: 'mecatl',
      kind: 'job-temp-lease',
      jobId: 'bashcmd-1',
      owner: { pid: process.pid }
    })
    expect(path.dirname(a.tmp)).toBe(a.dir)
    expect(dirs.held()).toEqual(new Set([a.dir, b.dir]))
    await writeFile(path.join(a.tmp, 'f'), 'x')
    await dirs.remove(a)
    expect(existsSync(a.dir)).toBe(false)
    expect(existsSync(b.tmp)).toBe(true)
    expect(dirs.held()).toEqual(new Set([b.dir]))
    await dirs.dispose()
    expect(existsSync(path.dirname(b.dir))).toBe(false)
  })

  it('releases the lease of a TMPDIR it cannot remove, keeping it and the root for the reaper', async () => {
    const dirs = new JobTempDirs(base)
    const lease = await dirs.create('bashcmd-1')
    // Deeper than a path can name: a plain recursive removal fails on it.
    const deep = spawnSync('bash', [
      '-c',
      'cd "$1" && for i in $(seq 24); do d=$(printf "%0200d" $i); mkdir "$d" && cd "$d"; done',
      '-',
      lease.tmp
    ])
    expect(deep.status).toBe(0)
    await dirs.remove(lease)
    expect(existsSync(lease.tmp)).toBe(true)
    const record = leaseOf(lease.dir)
    expect(record).toMatchObject({ jobId: 'bashcmd-1', owner: { pid: process.pid } })
    expect(record.releasedAt).toEqual(expect.any(Number))
    expect(dirs.held().size).toBe(0)
    const root = path.dirname(lease.dir)
    await dirs.dispose()
    // The marker stays with it: without it the lease could not be proved Mecatl's.
    expect(existsSync(path.join(root, '.mecatl-jobs.json'))).toBe(true)
    expect(existsSync(lease.dir)).toBe(true)
  })

  it('refuses a job id that could name a path elsewhere', async () => {
    const dirs = new JobTempDirs(base)
    for (const id of ['../escape', 'a/b', '', '.hidden', 'tmp/..']) {
      await expect(dirs.create(id)).rejects.toThrow(/cannot name a temp lease/)
    }
    await dirs.dispose()
  })
})
