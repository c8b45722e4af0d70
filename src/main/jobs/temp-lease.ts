import { constants, type Stats } from 'node:fs'
import { lstat, open } from 'node:fs/promises'
import { z } from 'zod'
import { processIdentitySchema } from './process-identity'

/**
 * The files that make a temp directory provably Mecatl's. Managed temporary storage lives in
 * roots named `mecatl-jobs-<pid>-<6 characters from mkdtemp>` in the temp folder, one per
 * process, each with a marker naming its owner; in a root, one lease directory per command or
 * job (`<root>/<job id>/`), holding the lease file and `tmp/`, the command's TMPDIR. The lease
 * file sits beside the command's TMPDIR, not in it, so clearing TMPDIR never loses it.
 */
export const ROOT_PREFIX = 'mecatl-jobs-'
export const ROOT_NAME = /^mecatl-jobs-(\d+)-[A-Za-z0-9]{6}$/
export const MARKER = '.mecatl-jobs.json'
export const LEASE = '.mecatl-lease.json'
export const LEASE_TMP = 'tmp'
/** Job ids as the job manager makes them (`bashcmd-7`); nothing else in a root is a lease. */
export const LEASE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/
const MAX_FILE_BYTES = 2048

export const rootMarkerSchema = z.strictObject({
  app: z.literal('mecatl'),
  kind: z.literal('job-temp-root'),
  owner: processIdentitySchema,
  createdAt: z.number()
})
export type RootMarker = z.infer<typeof rootMarkerSchema>

export const leaseSchema = z.strictObject({
  app: z.literal('mecatl'),
  kind: z.literal('job-temp-lease'),
  owner: processIdentitySchema,
  jobId: z.string().regex(LEASE_NAME),
  createdAt: z.number(),
  /** Set when the owner gave the lease up with files still in it (its removal failed). */
  releasedAt: z.number().optional()
})
export type Lease = z.infer<typeof leaseSchema>

/** A small JSON file, read only when it is a regular file of `uid`, never through a link. */
export async function readOwnJson<T>(
  file: string,
  schema: z.ZodType<T>,
  uid: number | undefined
): Promise<{ value: T; mtimeMs: number } | null> {
  let handle
  try {
    // No link is followed, and a FIFO planted under the name cannot make the read hang.
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile() || !ownedBy(stats, uid) || stats.size > MAX_FILE_BYTES) return null
    const parsed = schema.safeParse(JSON.parse(await handle.readFile('utf8')))
    return parsed.success ? { value: parsed.data, mtimeMs: stats.mtimeMs } : null
  } catch {
    return null
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/**
 * Whether `dir` is a real directory of `uid` (never a link). `private`: nobody else may write
 * in it either, so nothing in it can have been put there by another user.
 */
export async function ownDirectory(
  dir: string,
  uid: number | undefined,
  options: { private?: boolean } = {}
): Promise<boolean> {
  try {
    const stats = await lstat(dir)
    if (!stats.isDirectory() || !ownedBy(stats, uid)) return false
    return !options.private || (stats.mode & 0o022) === 0
  } catch {
    return false
  }
}

export function ownedBy(stats: Stats, uid: number | undefined): boolean {
  return uid === undefined || stats.uid === uid
}

/** Whether two records name the same process. */
export function sameOwner(a: Lease['owner'], b: Lease['owner']): boolean {
  return a.pid === b.pid && a.boot === b.boot && a.ns === b.ns && a.start === b.start
}
