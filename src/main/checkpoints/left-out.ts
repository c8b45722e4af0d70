import { lstat, open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomic } from '../workspace/atomic-write'

/** Binary files larger than this are not stored. */
export const MAX_BINARY_BYTES = 1024 * 1024

/** Why a file the folder's `.gitignore` files leave out is not covered. */
export const IGNORED = 'ignored by .gitignore'

/**
 * Why a folder that is a git repository of its own is not covered: git stores it as a pointer to
 * that repository's commit, never its files, so a restore could not bring them back.
 */
export const NESTED_REPOSITORY = 'a git repository of its own: its files are not checkpointed'

/** A path relative to the folder with why a checkpoint leaves it out. */
export interface NotCovered {
  path: string
  why: string
}

/**
 * Why `file` (relative to `workspace`) may not be stored, or null when it may. Links are judged
 * as links (git stores the target's name, never its bytes), so a link to a big file is stored.
 */
export async function whyLeftOut(
  workspace: string,
  file: string,
  maxFileBytes: number
): Promise<string | null> {
  const full = path.join(workspace, file)
  const info = await lstat(full).catch(() => null)
  if (info?.isDirectory()) {
    const inner = await lstat(path.join(full, '.git')).catch(() => null)
    return inner ? NESTED_REPOSITORY : null
  }
  if (!info?.isFile()) return null
  if (info.size > maxFileBytes) return `over the ${limitText(maxFileBytes)} limit`
  if (info.size > MAX_BINARY_BYTES && (await isBinary(full))) return 'a binary file over 1 MiB'
  return null
}

/** A NUL byte in the first 8 KiB, as git itself decides. */
export async function isBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(8192)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).includes(0)
  } finally {
    await handle.close()
  }
}

/**
 * The nested repositories `git add` refused because they have no commit yet: it stops the whole
 * add for them, so they are left out and the add is tried again.
 */
export function uncommittedRepositories(stderr: string): string[] {
  return [...stderr.matchAll(/^error: '(.+)\/' does not have a commit checked out$/gm)].map(
    (m) => m[1] ?? ''
  )
}

/** The files left out of a store's last checkpoint, kept beside it across restarts. */
export async function readLeftOut(file: string): Promise<Map<string, string>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
    return new Map(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string'
      )
    )
  } catch {
    return new Map()
  }
}

/** Writes the list only when it changed, so a take that leaves out nothing new writes nothing. */
export async function writeLeftOut(file: string, leftOut: Map<string, string>): Promise<void> {
  const next = JSON.stringify(Object.fromEntries(leftOut))
  const now = await readFile(file, 'utf8').catch(() => null)
  if (now !== next) await writeFileAtomic(file, next)
}

function limitText(bytes: number): string {
  const mib = bytes / (1024 * 1024)
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes}-byte`
}
