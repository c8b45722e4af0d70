import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanAbandonedJobDirs, JobTempDirs } from './temp-dirs'

let base: string

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-tmpbase-')))
})

afterEach(async () => {
  await rm(base, { recursive: true, force: true })
})

/** A root as a crashed process with this pid would have left it. */
async function plantRoot(pid: number, marker: unknown = { app: 'mecatl', pid, createdAt: 1 }) {
  const dir = path.join(base, `mecatl-jobs-${pid}-AbC123`)
  await mkdir(path.join(dir, 'bashcmd-1'), { recursive: true })
  await writeFile(path.join(dir, 'bashcmd-1', 'scratch.txt'), 'left behind')
  if (marker !== null) await writeFile(path.join(dir, '.mecatl-jobs.json'), JSON.stringify(marker))
  return dir
}

const nobodyAlive = (): boolean => false

describe('JobTempDirs', () => {
  it('gives each command its own directory and removes it', async () => {
    const dirs = new JobTempDirs(base)
    const a = await dirs.create('bashcmd-1')
    const b = await dirs.create('bashcmd-2')
    expect(a).not.toBe(b)
    expect(path.dirname(a)).toBe(path.dirname(b))
    await writeFile(path.join(a, 'f'), 'x')
    await dirs.remove(a)
    expect(existsSync(a)).toBe(false)
    expect(existsSync(b)).toBe(true)
    await dirs.dispose()
    expect(existsSync(path.dirname(b))).toBe(false)
  })

  it('never takes its own root for abandoned', async () => {
    const dirs = new JobTempDirs(base)
    const dir = await dirs.create('bashcmd-1')
    // This process is alive, so its own root is never taken for abandoned.
    expect(await cleanAbandonedJobDirs(base)).toEqual([])
    expect(existsSync(dir)).toBe(true)
    // Nor by a liveness check that is wrong: it is this process's own.
    expect(await cleanAbandonedJobDirs(base, nobodyAlive)).toEqual([])
    await dirs.dispose()
  })
})

describe('cleanAbandonedJobDirs', () => {
  it('removes the root of a process that is gone', async () => {
    const dir = await plantRoot(999_999)
    expect(await cleanAbandonedJobDirs(base, nobodyAlive)).toEqual([dir])
    expect(existsSync(dir)).toBe(false)
  })

  it('keeps the root of a process still running', async () => {
    const dir = await plantRoot(999_998)
    expect(await cleanAbandonedJobDirs(base, () => true)).toEqual([])
    expect(existsSync(dir)).toBe(true)
  })

  it('never touches what it cannot prove is ours', async () => {
    const noMarker = await plantRoot(100_001, null)
    const wrongPid = await plantRoot(100_002, { app: 'mecatl', pid: 4, createdAt: 1 })
    const foreign = await plantRoot(100_003, { app: 'other', pid: 100_003, createdAt: 1 })
    const lookalike = path.join(base, 'mecatl-jobs-100004-toolongname')
    await mkdir(lookalike)
    const otherTemp = path.join(base, 'something-else')
    await mkdir(otherTemp)
    // A link with our name pointing at someone else's directory is not followed.
    const target = path.join(base, 'precious')
    await mkdir(target)
    await writeFile(path.join(target, '.mecatl-jobs.json'), '{}')
    await symlink(target, path.join(base, 'mecatl-jobs-100005-Zz9Zz9'))
    // A marker that is a link to somewhere else is not trusted either.
    const linkedMarker = path.join(base, 'mecatl-jobs-100006-Yy8Yy8')
    await mkdir(linkedMarker)
    const realMarker = path.join(base, 'marker.json')
    await writeFile(realMarker, JSON.stringify({ app: 'mecatl', pid: 100_006, createdAt: 1 }))
    await symlink(realMarker, path.join(linkedMarker, '.mecatl-jobs.json'))

    expect(await cleanAbandonedJobDirs(base, nobodyAlive)).toEqual([])
    for (const dir of [noMarker, wrongPid, foreign, lookalike, otherTemp, target, linkedMarker]) {
      expect(existsSync(dir), dir).toBe(true)
    }
  })
})
