import { opendir, readdir, rmdir, unlink } from 'node:fs/promises'
import path from 'node:path'
import {
  ownerState as liveOwnerState,
  type OwnerState,
  type ProcessIdentity
} from './process-identity'
import { removeTree, WorkBudget } from './bounded-remove'
import {
  LEASE,
  LEASE_NAME,
  leaseSchema,
  MARKER,
  ownDirectory,
  readOwnJson,
  ROOT_NAME,
  rootMarkerSchema,
  sameOwner,
  type RootMarker
} from './temp-lease'

/** File-system operations one pass may do (see WorkBudget); the rest waits for the next pass. */
export const DEFAULT_PASS_BUDGET = 2000
/** Names of the temp folder one pass looks at, however crowded the folder is. */
const MAX_NAMES = 100_000

export interface ReapOptions {
  /** The temp folder holding the roots (`mecatl-jobs-<pid>-XXXXXX`). */
  base: string
  /** A lease abandoned for less than this is kept. */
  reapAfterMs: number
  /** This process, and the lease directories it holds now (always locked). */
  self: ProcessIdentity
  held: ReadonlySet<string>
  now?: number
  budget?: number
  signal?: AbortSignal
  /** Whose files count as ours (default: this process's user). */
  uid?: number
  /** Whether a lease's owner still runs (tests stand in a process that is gone). */
  ownerState?: (owner: ProcessIdentity) => Promise<OwnerState>
}

export interface ReapReport {
  /** Lease directories (and empty roots) removed. */
  reclaimed: string[]
  /** False when the budget ran out first: the next pass goes on. */
  finished: boolean
}

interface Pass {
  options: ReapOptions
  now: number
  uid: number
  budget: WorkBudget
  reclaimed: string[]
  state: (owner: ProcessIdentity) => Promise<OwnerState>
}

/**
 * One bounded pass over the temp folder. It reclaims only what it proves is Mecatl's and let go
 * of: a root with the right name that is a private directory of this user, holding a valid
 * marker for the pid in its name; in it, a lease directory of this user with a valid lease of
 * the same owner, that nobody holds (its owner is gone, or released it) and that was let go of
 * longer than `reapAfterMs` ago. Anything else, however alike in name, is not touched: no
 * other file of the temp folder is ever opened, let alone removed.
 */
export async function reapPass(options: ReapOptions): Promise<ReapReport> {
  const uid = options.uid ?? process.getuid?.()
  // Where files have no owner to check (not Linux or macOS), nothing can be proved ours.
  if (uid === undefined) return { reclaimed: [], finished: true }
  const pass: Pass = {
    options,
    now: options.now ?? Date.now(),
    uid,
    budget: new WorkBudget(options.budget ?? DEFAULT_PASS_BUDGET, options.signal),
    reclaimed: [],
    state: options.ownerState ?? liveOwnerState
  }
  let dir
  try {
    dir = await opendir(options.base)
  } catch {
    return { reclaimed: [], finished: true }
  }
  let seen = 0
  let finished = true
  try {
    for await (const entry of dir) {
      if (++seen > MAX_NAMES || pass.budget.spent) {
        finished = false
        break
      }
      const match = ROOT_NAME.exec(entry.name)
      if (!match) continue
      await reapRoot(pass, path.join(options.base, entry.name), Number(match[1]))
    }
  } finally {
    // Leaving the loop early closes it already; closing twice throws.
    await dir.close().catch(() => undefined)
  }
  return { reclaimed: pass.reclaimed, finished: finished && !pass.budget.spent }
}

async function reapRoot(pass: Pass, root: string, pid: number): Promise<void> {
  if (!pass.budget.take() || !(await ownDirectory(root, pass.uid, { private: true }))) return
  if (!pass.budget.take()) return
  const marker = await readOwnJson(path.join(root, MARKER), rootMarkerSchema, pass.uid)
  if (!marker || marker.value.owner.pid !== pid) return
  const owner = marker.value.owner
  const self = sameOwner(owner, pass.options.self)
  const state: OwnerState = self ? 'alive' : await pass.state(owner)
  if (state === 'unknown') return
  // A live owner shows it is alive by touching its marker; what it left is abandoned since then.
  const lastSeen = state === 'gone' ? marker.mtimeMs : null
  if (!pass.budget.take()) return
  const names = await readdir(root).catch(() => null)
  if (!names) return
  let kept = 0
  for (const name of names) {
    if (name === MARKER) continue
    if (pass.budget.spent) return
    const reclaimed = LEASE_NAME.test(name)
      ? await reapLease(pass, path.join(root, name), name, marker.value, state, self, lastSeen)
      : false
    if (!reclaimed) kept++
  }
  // A gone owner's root with nothing but its marker left has nothing more to keep.
  if (state === 'gone' && kept === 0 && pass.budget.take()) {
    await unlink(path.join(root, MARKER)).catch(() => undefined)
    await rmdir(root).then(
      () => pass.reclaimed.push(root),
      () => undefined
    )
  }
}

async function reapLease(
  pass: Pass,
  dir: string,
  name: string,
  marker: RootMarker,
  state: 'alive' | 'gone',
  self: boolean,
  lastSeen: number | null
): Promise<boolean> {
  if (self && pass.options.held.has(dir)) return false
  if (!pass.budget.take() || !(await ownDirectory(dir, pass.uid))) return false
  if (!pass.budget.take()) return false
  const lease = await readOwnJson(path.join(dir, LEASE), leaseSchema, pass.uid)
  if (!lease) {
    // Made but never leased (a crash between the two): an empty directory of a gone owner.
    if (state !== 'gone' || !pass.budget.take()) return false
    return rmdir(dir).then(
      () => (pass.reclaimed.push(dir), true),
      () => false
    )
  }
  const record = lease.value
  if (record.jobId !== name || !sameOwner(record.owner, marker.owner)) return false
  const released = record.releasedAt !== undefined
  // Locked: its owner runs and has not let it go.
  if (state === 'alive' && !released) return false
  // Let go of when released; else when its gone owner was last seen alive.
  const since = record.releasedAt ?? Math.max(record.createdAt, lastSeen ?? record.createdAt)
  if (pass.now - since < pass.options.reapAfterMs) return false
  return reclaim(pass, dir)
}

/** Everything in the lease directory, the lease file last, then the directory. */
async function reclaim(pass: Pass, dir: string): Promise<boolean> {
  if (!pass.budget.take()) return false
  const names = await readdir(dir).catch(() => null)
  if (!names) return false
  for (const name of names) {
    if (name === LEASE) continue
    if (!(await removeTree(path.join(dir, name), pass.budget, pass.uid))) return false
  }
  if (!pass.budget.take()) return false
  await unlink(path.join(dir, LEASE)).catch(() => undefined)
  if (!pass.budget.take()) return false
  return rmdir(dir).then(
    () => (pass.reclaimed.push(dir), true),
    () => false
  )
}
