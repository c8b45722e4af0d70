import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { FileChange } from '../../shared/checkpoints'
import type { NotCovered } from './left-out'
import type { Checkpoint } from './shadow-store'

// How the shadow store reads and writes git's text (commit messages, NUL lists, name-status
// output, pathspecs) and git's files (locks, loose objects).

/** Pathspecs that match only the file of that exact name: no globs, no magic (`:(exclude)`). */
export function literal(files: readonly string[]): string {
  return files.map((file) => `:(literal)${file}`).join('\0')
}

/** Sorted by path, as every not-covered list is shown. */
export function byPath(list: NotCovered[]): NotCovered[] {
  return [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The changes to the files named (all when none are). */
export function only<T extends FileChange>(
  changes: T[],
  files: readonly string[] | undefined
): T[] {
  if (!files) return changes
  const wanted = new Set(files.map(normalise))
  return changes.filter((change) => wanted.has(change.path))
}

/** A checkpoint from `<id>\0<commit message>`; a message that is not ours is its reason. */
export function parseEntry(entry: string): Checkpoint {
  const [id = '', body = ''] = splitOnce(entry)
  try {
    const parsed = JSON.parse(body.trim()) as { reason?: string; sessionId?: string; at?: number }
    return {
      id: id.trim(),
      reason: parsed.reason ?? '',
      sessionId: parsed.sessionId ?? null,
      at: parsed.at ?? 0
    }
  } catch {
    return { id: id.trim(), reason: body.trim(), sessionId: null, at: 0 }
  }
}

/** Text before and after the first NUL. */
export function splitOnce(text: string): [string, string] {
  const at = text.indexOf('\0')
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)]
}

export function parseNul(out: string): string[] {
  return out.split('\0').filter(Boolean)
}

/** `git diff --name-status -z --no-renames`: a type change (file to link) reads as changed. */
export function parseNameStatus(out: string): FileChange[] {
  const parts = parseNul(out)
  const changes: FileChange[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]
    const file = parts[i + 1] ?? ''
    const change = status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'changed'
    changes.push({ path: file, change })
  }
  return changes
}

/** A file change with what each side has there: a restore to the older writes that back. */
export interface RawChange extends FileChange {
  /** git's mode of the older side (`100644`, `100755`, `120000`; `000000` where it had none). */
  mode: string
  /** Its blob. */
  oid: string
  /** The mode and blob of the newer side (the folder before the restore). */
  nowMode: string
  nowOid: string
}

/**
 * `git diff --raw -z --no-renames --no-abbrev`: `:<old mode> <new mode> <old oid> <new oid>
 * <status>` and the path, each ended by a NUL. The older side is the checkpoint restored to.
 */
export function parseRaw(out: string): RawChange[] {
  const parts = parseNul(out)
  const changes: RawChange[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const fields = (parts[i] ?? '').replace(/^:/, '').split(' ')
    const [mode = '', nowMode = '', oid = '', nowOid = '', status = ''] = fields
    const file = parts[i + 1] ?? ''
    const change = status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'changed'
    changes.push({ path: file, change, mode, oid, nowMode, nowOid })
  }
  return changes
}

/** A path as the store names it: relative, forward slashes, no `./`. */
export function normalise(file: string): string {
  return path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, '')
}

/** Bytes the files under `dir` take. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  for (const entry of entries) {
    if (!entry.isFile()) continue
    const info = await stat(path.join(entry.parentPath ?? entry.path, entry.name)).catch(() => null)
    total += info?.size ?? 0
  }
  return total
}

/** Bytes of the loose objects under `<gitDir>/objects/xx/`. */
export async function looseObjectBytes(gitDir: string): Promise<number> {
  const objects = path.join(gitDir, 'objects')
  const loose = (await readdir(objects).catch(() => [])).filter((d) => /^[0-9a-f]{2}$/.test(d))
  let bytes = 0
  for (const dir of loose) bytes += await folderBytes(path.join(objects, dir))
  return bytes
}

/**
 * Removes the locks a killed run left: git takes them with O_EXCL and never clears another's, so
 * one would stop every later checkpoint. Only Mecatl uses a store, and only through its queue.
 */
export async function removeStaleLocks(gitDir: string): Promise<void> {
  const refs = await readdir(path.join(gitDir, 'refs'), { recursive: true }).catch(() => [])
  const locks = [
    'mecatl-index.lock',
    'packed-refs.lock',
    ...refs.filter((name) => name.endsWith('.lock')).map((name) => path.join('refs', name))
  ]
  for (const lock of locks) await rm(path.join(gitDir, lock), { force: true })
}
