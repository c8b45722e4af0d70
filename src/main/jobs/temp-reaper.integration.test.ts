import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rename,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { selfIdentity, type ProcessIdentity } from './process-identity'
import { repoRoot } from '../../../testing/cli-runner'
import { endedPid, HOUR, plantRoot, type PlantedRoot } from '../../../testing/planted-leases'
import { killLeftovers } from '../../../testing/processes'
import { JobTempDirs } from './temp-dirs'
import { reapPass, type ReapOptions } from './temp-reaper'

const REAP_AFTER = 24 * HOUR
/** The pass's clock: leases are planted relative to it, so no test waits on the real one. */
const NOW = Date.now()

let base: string
let self: ProcessIdentity

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-reaper-')))
  self = await selfIdentity()
})

afterEach(async () => {
  // The planted leases hold directories nobody may enter (chmod 000).
  spawnSync('chmod', ['-R', 'u+rwx', base])
  await rm(base, { recursive: true, force: true })
})

/** The identity of a Mecatl that ran as `pid` (ours is alive; any other here has ended). */
function ownerOf(pid: number, start: string | null = 'planted'): ProcessIdentity {
  return { ...self, pid, start }
}

/** A root as a Mecatl run by `owner` leaves it in the test's base. */
function plant(owner: ProcessIdentity, lastSeen: number, suffix?: string): Promise<PlantedRoot> {
  return plantRoot(base, owner, lastSeen, suffix)
}

function pass(options: Partial<ReapOptions> = {}): ReturnType<typeof reapPass> {
  return reapPass({ base, reapAfterMs: REAP_AFTER, self, held: new Set(), now: NOW, ...options })
}

/** Waits until `file` holds a line, and returns it. */
async function lineOf(file: string): Promise<string> {
  while (!existsSync(file) || !readFileSync(file, 'utf8').endsWith('\n')) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return readFileSync(file, 'utf8').trim()
}

describe('the temp reaper', () => {
  it('leaves the lease of a running Mecatl alone, and reclaims it once that Mecatl was killed', async () => {
    const folder = path.join(base, 'owner')
    await mkdir(folder)
    // A real Mecatl's job manager in another process, running one command.
    const owner = spawn(
      process.execPath,
      [
        path.join(repoRoot, 'testing/job-owner.mjs'),
        folder,
        'echo $$ > shell.pid; touch "$TMPDIR/work"; echo "$TMPDIR" > tmpdir.txt; sleep 300'
      ],
      { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] }
    )
    const exited = new Promise((resolve) => owner.once('exit', resolve))
    const shell = Number(await lineOf(path.join(folder, 'shell.pid')))
    try {
      const tmp = await lineOf(path.join(folder, 'tmpdir.txt'))
      expect(tmp.startsWith(path.join(folder, 'mecatl-jobs-'))).toBe(true)
      // Its owner runs: however old the pass thinks the lease is, it stays.
      expect(await pass({ base: folder, now: NOW + 1000 * HOUR })).toEqual({
        reclaimed: [],
        finished: true
      })
      expect(existsSync(path.join(tmp, 'work'))).toBe(true)

      owner.kill('SIGKILL')
      await exited
      // Abandoned just now: kept for a look, until command_reap_after has passed.
      expect((await pass({ base: folder, now: Date.now() })).reclaimed).toEqual([])
      expect(existsSync(path.join(tmp, 'work'))).toBe(true)
      const later = await pass({ base: folder, now: Date.now() + 25 * HOUR })
      expect(later.reclaimed).toContain(path.dirname(tmp))
      expect(existsSync(path.dirname(tmp))).toBe(false)
      // Nothing else of the folder was touched.
      expect((await readdir(folder)).sort()).toEqual(['shell.pid', 'tmpdir.txt'])
    } finally {
      killLeftovers([owner.pid ?? 0, shell])
    }
  })

  it('reclaims a lease abandoned longer than command_reap_after, and leaves a live one alone', async () => {
    const live = new JobTempDirs(base)
    const held = await live.create('bashcmd-1')
    await writeFile(path.join(held.tmp, 'in-use'), 'mine')
    const crashed = await plant(ownerOf(endedPid()), NOW - 48 * HOUR)
    const abandoned = await crashed.lease('bashcmd-3')

    const report = await pass({ held: live.held() })
    expect(report.reclaimed).toContain(abandoned)
    expect(existsSync(abandoned)).toBe(false)
    // The gone owner's root had nothing else left: it goes too.
    expect(existsSync(crashed.root)).toBe(false)
    expect(readFileSync(path.join(held.tmp, 'in-use'), 'utf8')).toBe('mine')
    // However old the pass thinks it is, a lease this process holds is locked: even when the
    // command rewrote its lease file to look released long ago.
    const file = path.join(held.dir, '.mecatl-lease.json')
    const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    await writeFile(file, JSON.stringify({ ...record, releasedAt: 1 }))
    await pass({ held: live.held(), now: NOW + 1000 * HOUR })
    expect(existsSync(path.join(held.tmp, 'in-use'))).toBe(true)
    await live.dispose()
  })

  it('keeps an abandoned lease until it is older than command_reap_after', async () => {
    const crashed = await plant(ownerOf(endedPid()), NOW - 2 * HOUR)
    const young = await crashed.lease('bashcmd-1', { createdAt: NOW - 3 * HOUR })
    expect((await pass()).reclaimed).toEqual([])
    expect(existsSync(young)).toBe(true)
    // Abandoned since its owner was last seen alive, not since the lease was made.
    expect((await pass({ now: NOW + 21 * HOUR })).reclaimed).toEqual([])
    expect((await pass({ now: NOW + 23 * HOUR })).reclaimed).toContain(young)
  })

  it('takes the lease of a pid now used by another process, never one of a live owner', async () => {
    // Our own pid, another start time: a Mecatl that had this pid before, long gone.
    const earlier = await plant(ownerOf(process.pid, 'another-start'), NOW - 48 * HOUR)
    const taken = await earlier.lease('bashcmd-1')
    // A live Mecatl of the same identity as this process, in a root this process did not make.
    const running = await plant(ownerOf(process.pid, self.start), NOW - 48 * HOUR, 'Zz9Zz9')
    const locked = await running.lease('bashcmd-2')
    const report = await pass()
    expect(report.reclaimed).toContain(taken)
    expect(existsSync(taken)).toBe(false)
    expect(existsSync(locked)).toBe(true)
    expect(existsSync(running.root)).toBe(true)
  })

  it('takes a lease its live owner released, once the release is old enough', async () => {
    const running = await plant(self, NOW)
    const released = await running.lease('bashcmd-1', { releasedAt: NOW - 25 * HOUR })
    const recent = await running.lease('bashcmd-2', { releasedAt: NOW - HOUR })
    const report = await pass()
    expect(report.reclaimed).toEqual([released])
    expect(existsSync(recent)).toBe(true)
    // The owner is alive: its root stays.
    expect(existsSync(running.root)).toBe(true)
  })

  it('never touches what it cannot prove is Mecatl’s own', async () => {
    const gone = endedPid()
    const old = NOW - 48 * HOUR
    const untouched: string[] = []
    // Our name, no marker.
    const noMarker = path.join(base, `mecatl-jobs-${gone}-NoMark`)
    await mkdir(path.join(noMarker, 'bashcmd-1'), { recursive: true })
    untouched.push(path.join(noMarker, 'bashcmd-1'))
    // Our name, a marker of some other program, and one naming another pid.
    for (const [suffix, record] of [
      ['Other1', { app: 'other', kind: 'job-temp-root', owner: ownerOf(gone), createdAt: 1 }],
      ['Wrong1', { app: 'mecatl', kind: 'job-temp-root', owner: ownerOf(4), createdAt: 1 }]
    ] as const) {
      const dir = path.join(base, `mecatl-jobs-${gone}-${suffix}`)
      await mkdir(path.join(dir, 'bashcmd-1'), { recursive: true })
      await writeFile(path.join(dir, '.mecatl-jobs.json'), JSON.stringify(record))
      untouched.push(path.join(dir, 'bashcmd-1'))
    }
    // A look-alike name the pattern does not take.
    const lookalike = path.join(base, `mecatl-jobs-${gone}-toolongname`)
    await mkdir(lookalike)
    untouched.push(lookalike)
    // A link with a root's name to a directory that holds a perfect-looking root.
    const precious = await plant(ownerOf(gone), old, 'Prec10')
    const preciousLease = await precious.lease('bashcmd-1')
    const target = path.join(base, 'precious')
    await chmod(path.join(preciousLease, 'tmp', 'locked'), 0o700)
    await rename(precious.root, target)
    await symlink(target, path.join(base, `mecatl-jobs-${gone}-Link01`))
    untouched.push(path.join(target, 'bashcmd-1'))
    // A real root that other users may write in: anything in it may be theirs.
    const open = await plant(ownerOf(gone), old, 'Open01')
    untouched.push(await open.lease('bashcmd-1'))
    await chmod(open.root, 0o777)
    // A valid root whose leases are not: a link for a lease file, a FIFO, another owner's lease,
    // a lease for another job id, and a directory that is a link.
    const mixed = await plant(ownerOf(gone), old, 'Mixed1')
    const linked = await mixed.lease('bashcmd-1')
    const realLease = path.join(base, 'lease.json')
    await rename(path.join(linked, '.mecatl-lease.json'), realLease)
    await symlink(realLease, path.join(linked, '.mecatl-lease.json'))
    const fifo = await mixed.lease('bashcmd-2')
    await rm(path.join(fifo, '.mecatl-lease.json'))
    expect(spawnSync('mkfifo', [path.join(fifo, '.mecatl-lease.json')]).status).toBe(0)
    const foreignOwner = await mixed.lease('bashcmd-3')
    await writeFile(
      path.join(foreignOwner, '.mecatl-lease.json'),
      JSON.stringify({
        app: 'mecatl',
        kind: 'job-temp-lease',
        owner: ownerOf(5),
        jobId: 'bashcmd-3',
        createdAt: 1
      })
    )
    const renamed = await mixed.lease('bashcmd-4')
    await rename(renamed, path.join(mixed.root, 'bashcmd-44'))
    const elsewhere = path.join(base, 'elsewhere')
    await mkdir(elsewhere)
    await writeFile(path.join(elsewhere, 'keep.txt'), 'keep')
    await symlink(elsewhere, path.join(mixed.root, 'bashcmd-5'))
    untouched.push(linked, fifo, foreignOwner, path.join(mixed.root, 'bashcmd-44'), elsewhere)
    // And whatever else the temp folder holds.
    const other = path.join(base, 'something-else')
    await mkdir(other)
    untouched.push(other)

    const report = await pass()
    expect(report).toEqual({ reclaimed: [], finished: true })
    for (const dir of untouched) expect(existsSync(dir), dir).toBe(true)
    expect(readFileSync(path.join(elsewhere, 'keep.txt'), 'utf8')).toBe('keep')
    expect(readFileSync(path.join(target, 'bashcmd-1', 'tmp', 'cache', 'left.txt'), 'utf8')).toBe(
      'left behind'
    )
  })

  it('leaves the directories of another user alone, names and markers alike', async () => {
    const crashed = await plant(ownerOf(endedPid()), NOW - 48 * HOUR)
    const lease = await crashed.lease('bashcmd-1')
    // As another user sees it: every file here is someone else's.
    const someoneElse = (process.getuid?.() ?? 0) + 1
    expect(await pass({ uid: someoneElse })).toEqual({ reclaimed: [], finished: true })
    expect(existsSync(lease)).toBe(true)
  })

  it('does a bounded amount of work per pass and goes on at the next', async () => {
    const crashed = await plant(ownerOf(endedPid()), NOW - 48 * HOUR)
    const big = await crashed.lease('bashcmd-1')
    for (let i = 0; i < 60; i++) await writeFile(path.join(big, 'tmp', `f${i}`), 'x')
    const first = await pass({ budget: 25 })
    expect(first.finished).toBe(false)
    expect(existsSync(path.join(big, '.mecatl-lease.json'))).toBe(true)
    expect((await readdir(path.join(big, 'tmp'))).length).toBeLessThan(62)
    let passes = 1
    while (existsSync(big) && passes < 20) {
      await pass({ budget: 25 })
      passes++
    }
    expect(existsSync(big)).toBe(false)
    expect(passes).toBeGreaterThan(2)
  })

  it('stops a pass at once when it is aborted', async () => {
    const crashed = await plant(ownerOf(endedPid()), NOW - 48 * HOUR)
    const lease = await crashed.lease('bashcmd-1')
    const stop = new AbortController()
    stop.abort()
    expect(await pass({ signal: stop.signal })).toEqual({ reclaimed: [], finished: false })
    expect(existsSync(lease)).toBe(true)
  })
})
