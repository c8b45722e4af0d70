import { randomBytes } from 'node:crypto'
import {
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  rmdir,
  unlink,
  utimes,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { selfIdentity, type ProcessIdentity } from './process-identity'
import {
  LEASE,
  LEASE_NAME,
  LEASE_TMP,
  MARKER,
  ROOT_PREFIX,
  type Lease,
  type RootMarker
} from './temp-lease'

/**
 * Every lease directory this process holds, whichever JobTempDirs made it: a reaper in this
 * process never takes one, whatever its file says (a command can rewrite its own lease).
 */
const heldHere = new Set<string>()

/** A command's managed temp directory: `tmp` is its TMPDIR; `dir` holds it and the lease. */
export interface TempLease {
  jobId: string
  dir: string
  tmp: string
  createdAt: number
}

/**
 * The managed temporary storage of one process's shell commands: one root per process, proved
 * ours by a marker naming this process, and in it a lease directory per command or job, whose
 * lease this process holds while the command runs. When the command ends its directory is
 * removed; when that fails (a command can leave files it cannot be made to let go of), the
 * lease is released with the files in it, for the reaper (temp-reaper.ts) to take later.
 */
export class JobTempDirs {
  private root: Promise<string> | null = null
  private readonly leases = new Map<string, TempLease>()
  /** Started at once: the owner's identity (macOS asks `ps`) is never waited for by a command. */
  readonly identity: Promise<ProcessIdentity> = selfIdentity()

  constructor(readonly base: string = os.tmpdir()) {}

  /** The lease directories this process holds now: locked, whatever their files say. */
  held(): ReadonlySet<string> {
    return new Set(heldHere)
  }

  /** Where this process's root is, once a command has made it; null before. */
  async rootDir(): Promise<string | null> {
    return this.root ? this.root.catch(() => null) : null
  }

  /** Creates the command's lease and its empty TMPDIR (and the root, the first time). */
  async create(jobId: string): Promise<TempLease> {
    if (!LEASE_NAME.test(jobId)) throw new Error(`"${jobId}" cannot name a temp lease`)
    const owner = await this.identity
    const dir = path.join(await this.ensureRoot(), jobId)
    await mkdir(dir, { mode: 0o700 })
    const lease: TempLease = { jobId, dir, tmp: path.join(dir, LEASE_TMP), createdAt: Date.now() }
    try {
      const record: Lease = {
        app: 'mecatl',
        kind: 'job-temp-lease',
        owner,
        jobId,
        createdAt: lease.createdAt
      }
      await writeFile(path.join(dir, LEASE), JSON.stringify(record), { mode: 0o600, flag: 'wx' })
      await mkdir(lease.tmp, { mode: 0o700 })
    } catch (error) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined)
      throw error
    }
    this.leases.set(dir, lease)
    heldHere.add(dir)
    return lease
  }

  /**
   * The command ended: its TMPDIR goes, then the lease. When TMPDIR cannot be removed the lease
   * is released instead, files and all, and the reaper reclaims it once it is old enough.
   */
  async remove(lease: TempLease): Promise<void> {
    try {
      // TMPDIR first: the lease file is the last thing to go, so nothing is ever left unproved.
      await rm(lease.tmp, { recursive: true, force: true, maxRetries: 2 })
      await rm(lease.dir, { recursive: true, force: true, maxRetries: 2 })
    } catch {
      await this.release(lease).catch(() => undefined)
    } finally {
      this.leases.delete(lease.dir)
      heldHere.delete(lease.dir)
    }
  }

  /** Shows this process is still alive, so its leases are not taken for abandoned after it. */
  async heartbeat(): Promise<void> {
    const root = await this.rootDir()
    if (!root) return
    const now = new Date()
    await utimes(path.join(root, MARKER), now, now).catch(() => undefined)
  }

  /** Removes every lease still held, and the root when nothing else is left in it. */
  async dispose(): Promise<void> {
    for (const lease of [...this.leases.values()]) await this.remove(lease)
    const root = await this.rootDir()
    this.root = null
    if (!root) return
    const names = await readdir(root).catch(() => null)
    // A released lease stays for the reaper, and the marker with it: it proves the lease ours.
    if (!names || names.some((name) => name !== MARKER)) return
    await unlink(path.join(root, MARKER)).catch(() => undefined)
    await rmdir(root).catch(() => undefined)
  }

  private async release(lease: TempLease): Promise<void> {
    const file = path.join(lease.dir, LEASE)
    const record: Lease = {
      app: 'mecatl',
      kind: 'job-temp-lease',
      owner: await this.identity,
      jobId: lease.jobId,
      createdAt: lease.createdAt,
      releasedAt: Date.now()
    }
    // Written beside it and renamed over it: a reaper never reads half a lease.
    const next = `${file}.${randomBytes(4).toString('hex')}`
    await writeFile(next, JSON.stringify(record), { mode: 0o600, flag: 'wx' })
    await rename(next, file)
  }

  private ensureRoot(): Promise<string> {
    this.root ??= (async () => {
      const root = await mkdtemp(path.join(this.base, `${ROOT_PREFIX}${process.pid}-`))
      const marker: RootMarker = {
        app: 'mecatl',
        kind: 'job-temp-root',
        owner: await this.identity,
        createdAt: Date.now()
      }
      try {
        await writeFile(path.join(root, MARKER), JSON.stringify(marker), { mode: 0o600 })
      } catch (error) {
        await rmdir(root).catch(() => undefined)
        throw error
      }
      return root
    })()
    // A root that could not be made is tried again by the next command, not kept as a failure.
    const made = this.root
    made.catch(() => {
      if (this.root === made) this.root = null
    })
    return made
  }
}
