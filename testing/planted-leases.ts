// Managed temp storage as other Mecatl runs leave it, for the reaper's tests. Not shipped.
import { spawnSync } from 'node:child_process'
import { chmod, mkdir, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ProcessIdentity } from '../src/main/jobs/process-identity'

export const HOUR = 3_600_000

/** A pid that was a real process and has ended. */
export function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  if (!child.pid) throw new Error('no child was started')
  return child.pid
}

export interface PlantedRoot {
  root: string
  marker: string
  /** A lease directory with files in TMPDIR (one of them a directory nobody may enter). */
  lease(jobId: string, options?: { createdAt?: number; releasedAt?: number }): Promise<string>
}

/** A root in `base` as a Mecatl run by `owner` leaves it, last seen alive at `lastSeen`. */
export async function plantRoot(
  base: string,
  owner: ProcessIdentity,
  lastSeen: number,
  suffix = 'AbC123'
): Promise<PlantedRoot> {
  const root = path.join(base, `mecatl-jobs-${owner.pid}-${suffix}`)
  await mkdir(root, { mode: 0o700 })
  const marker = path.join(root, '.mecatl-jobs.json')
  const record = { app: 'mecatl', kind: 'job-temp-root', owner, createdAt: lastSeen - HOUR }
  await writeFile(marker, JSON.stringify(record))
  await utimes(marker, new Date(lastSeen), new Date(lastSeen))
  return {
    root,
    marker,
    lease: async (jobId, options = {}) => {
      const dir = path.join(root, jobId)
      await mkdir(path.join(dir, 'tmp', 'cache'), { recursive: true, mode: 0o700 })
      await writeFile(path.join(dir, 'tmp', 'cache', 'left.txt'), 'left behind')
      const lease = {
        app: 'mecatl',
        kind: 'job-temp-lease',
        owner,
        jobId,
        createdAt: options.createdAt ?? lastSeen - HOUR,
        ...(options.releasedAt === undefined ? {} : { releasedAt: options.releasedAt })
      }
      await writeFile(path.join(dir, '.mecatl-lease.json'), JSON.stringify(lease))
      // What a command can leave that a plain removal cannot get through (unless root).
      await mkdir(path.join(dir, 'tmp', 'locked'))
      await writeFile(path.join(dir, 'tmp', 'locked', 'x'), 'x')
      await chmod(path.join(dir, 'tmp', 'locked'), 0o000)
      return dir
    }
  }
}
