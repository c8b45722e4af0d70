import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { selfOwner } from './job-marker'
import { processExists, readProcStat } from './process-group'

/**
 * One process, for good, as a lease records its owner. A pid alone cannot say that the owner
 * still runs: pids are reused, after a reboot the same pid is some other program, and a process
 * in another pid namespace (a container sharing /tmp) has pids that mean nothing here. So the
 * lease records the pid with when that process started and, on Linux, the boot and the pid
 * namespace it counts in (the job markers name their owner the same way: job-marker.ts); the
 * lease's lock is held exactly while that process lives. Where the start time cannot be read
 * (not Linux or macOS) it is null, and a live pid then always counts as the owner.
 */
export const processIdentitySchema = z.strictObject({
  pid: z.number().int().positive(),
  /** Linux: the boot's id (`/proc/sys/kernel/random/boot_id`); null elsewhere. */
  boot: z.string().max(100).nullable(),
  /** Linux: the inode of the pid namespace the pid counts in; null elsewhere. */
  ns: z.string().max(100).nullable(),
  /** When it started: clock ticks after boot (Linux), a date (macOS); null where unknown. */
  start: z.string().max(100).nullable()
})
export type ProcessIdentity = z.infer<typeof processIdentitySchema>

/** What a lease's recorded owner is now: alive, gone, or not knowable from here (kept). */
export type OwnerState = 'alive' | 'gone' | 'unknown'

let boot: Promise<string | null> | null = null

function bootId(): Promise<string | null> {
  boot ??=
    process.platform === 'linux'
      ? readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
          (id) => id.trim() || null,
          () => null
        )
      : Promise.resolve(null)
  return boot
}

let self: Promise<ProcessIdentity> | null = null

/** This process's identity, to write into the leases it holds (read once). */
export function selfIdentity(): Promise<ProcessIdentity> {
  self ??= readSelf()
  return self
}

async function readSelf(): Promise<ProcessIdentity> {
  if (process.platform === 'linux') {
    const { startTime, pidNamespace } = selfOwner()
    return {
      pid: process.pid,
      boot: await bootId(),
      ns: pidNamespace ? String(pidNamespace) : null,
      start: startTime ? String(startTime) : null
    }
  }
  const start = process.platform === 'darwin' ? await darwinStart(process.pid) : null
  return { pid: process.pid, boot: null, ns: null, start }
}

/** Whether the process `owner` names still runs. */
export async function ownerState(owner: ProcessIdentity): Promise<OwnerState> {
  const here = await selfIdentity()
  // Every process of an earlier boot is gone.
  if (owner.boot !== null && here.boot !== null && owner.boot !== here.boot) return 'gone'
  // Its pid counts in another process table: nothing here can say whether it runs.
  if (owner.ns !== here.ns) return 'unknown'
  if (process.platform === 'linux' && owner.start !== null) {
    const stat = readProcStat(owner.pid)
    // No such process; or it may just have ended, or /proc is not what it was: ask again later.
    if (!stat) return processExists(owner.pid) ? 'unknown' : 'gone'
    // Another process under a reused pid, or the owner dead and waiting to be reaped.
    if (String(stat.startTime) !== owner.start || stat.state === 'Z' || stat.state === 'X') {
      return 'gone'
    }
    return 'alive'
  }
  if (!processExists(owner.pid)) return 'gone'
  if (owner.start === null) return 'alive'
  const start = await darwinStart(owner.pid)
  if (start === null) return 'unknown'
  return start === owner.start ? 'alive' : 'gone'
}

/** When process `pid` started, from `ps` (macOS), or null when that cannot be read. */
function darwinStart(pid: number): Promise<string | null> {
  if (process.platform !== 'darwin') return Promise.resolve(null)
  return new Promise((resolve) => {
    execFile(
      '/bin/ps',
      ['-o', 'lstart=', '-p', String(pid)],
      { timeout: 5000, env: { PATH: '/bin:/usr/bin', LC_ALL: 'C', TZ: 'UTC' } },
      (error, stdout) => {
        const text = stdout.trim()
        resolve(error || !text ? null : text)
      }
    )
  })
}
