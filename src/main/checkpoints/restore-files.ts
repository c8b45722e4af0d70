import { lstat } from 'node:fs/promises'
import path from 'node:path'
import type { FileChange } from '../../shared/checkpoints'
import { JailedTree } from '../workspace/jailed-tree'
import { messageOf, whyNotRestored } from './not-restored'
import { readBlobs, type GitBytes } from './restore-blobs'
import type { RawChange } from './shadow-format'
import { GitFailure } from './shadow-git'
import type { NotRestored, TakenCheckpoint } from './shadow-types'

/**
 * Something other than a folder is at `file` in the folder. A folder in the way is the restore's
 * to replace (when it is empty), and so is a link standing for a parent folder: what it leads to
 * is not the folder's. Only a look, to plan by: the acts go through the jail.
 */
export async function presentFile(workspace: string, file: string): Promise<boolean> {
  for (let dir = path.dirname(file); dir !== '.' && dir !== ''; dir = path.dirname(dir)) {
    const parent = await lstat(path.join(workspace, dir)).catch(() => null)
    if (!parent?.isDirectory()) return false
  }
  const info = await lstat(path.join(workspace, file)).catch(() => null)
  return info !== null && !info.isDirectory()
}

/**
 * What of `changes` a restore may put back. A file left out now (too big, ignored, unreadable) is
 * absent from the folder's tree, so it reads as deleted: put back, its current bytes would be
 * lost with no copy to undo to. It is left as it is.
 */
export async function restorable<T extends FileChange>(
  workspace: string,
  skipped: ReadonlyMap<string, string>,
  changes: T[]
): Promise<T[]> {
  const kept: T[] = []
  for (const change of changes) {
    if (skipped.has(change.path)) continue
    if (change.change === 'deleted' && (await presentFile(workspace, change.path))) continue
    kept.push(change)
  }
  return kept
}

/**
 * The checkpoint a restore takes first, so it can be undone; taken once more when git fails, as
 * a folder changing under git's walk (a command still running, a folder swapped) can make it
 * fail once. Without it nothing is put back, and the error says so.
 */
export async function checkpointFirst(
  take: () => Promise<TakenCheckpoint>
): Promise<TakenCheckpoint> {
  try {
    return await take().catch((error: unknown) => {
      if (!(error instanceof GitFailure)) throw error
      return take()
    })
  } catch (error) {
    throw new Error(
      `the folder could not be checkpointed before the restore, so nothing was restored (${messageOf(error)}); if files are changing in it, try again once they stop`,
      { cause: error }
    )
  }
}

/** What a restore needs of its store: the folder, the store's git, and the largest file kept. */
export interface RestoreIo {
  workspace: string
  git: (args: string[], options?: { input?: string }) => Promise<string>
  gitBytes: GitBytes
  maxFileBytes: number
}

/** What a restore did: the changes it made, and the files it left as they are, with why. */
export interface PutBack {
  done: FileChange[]
  notRestored: NotRestored[]
}

/**
 * Removes the files in `created` (and the folders left empty by it) and writes the others back
 * as they are in the checkpoint, every act through the jail's descriptor walk (JailedTree), never
 * by a path from the folder down, and never by git, which writes by path: a folder swapped for a
 * link between the restore's look and its act is refused, never followed. A file that cannot be
 * put back is listed with why, and the restore goes on with the rest: each file is put back
 * whole or not at all, and one refused says nothing about the next. The store's index ends as
 * the folder is. Files removed or rewritten are set in it while the files are written (the
 * store's queue keeps every other use of it waiting), and set back when they were left; files
 * brought back are added once they are, as an entry added where a link or file stood for its
 * folder would take that entry out too.
 */
export async function putBackFiles(
  io: RestoreIo,
  created: readonly RawChange[],
  back: readonly RawChange[]
): Promise<PutBack> {
  const result: PutBack = { done: [], notRestored: [] }
  const all = [...created, ...back]
  const inPlace = all.filter((change) => change.change !== 'deleted')
  const indexed = setIndex(io, inPlace.map(thenSide))
  indexed.catch(() => undefined)
  const writes = byBlob(back, result)
  const batches = readBlobs(io.gitBytes, [...writes.keys()], io.maxFileBytes)
  // The first batch is read while the created files are removed.
  const first = batches.next()
  first.catch(() => undefined)
  await JailedTree.open(io.workspace).then(
    async (tree) => {
      try {
        await removeAll(tree, created, result)
        await writeAll(tree, writes, first, batches, result)
      } finally {
        await tree.close()
      }
    },
    (error: unknown) => {
      const why = whyNotRestored(error, io.workspace)
      for (const change of all) result.notRestored.push({ path: change.path, why })
    }
  )
  await indexed
  // In the order git lists changes, whatever order the writes ended in.
  result.done.sort(byPath)
  result.notRestored.sort(byPath)
  const left = new Set(result.notRestored.map((file) => file.path))
  await setIndex(io, [
    ...inPlace.filter((change) => left.has(change.path)).map(nowSide),
    ...back.filter((c) => c.change === 'deleted' && !left.has(c.path)).map(thenSide)
  ])
  return result
}

async function removeAll(
  tree: JailedTree,
  created: readonly RawChange[],
  result: PutBack
): Promise<void> {
  const emptied = new Set<string>()
  for (const change of created) {
    try {
      await tree.remove(change.path)
      result.done.push({ path: change.path, change: change.change })
      const folder = path.posix.dirname(change.path)
      if (folder !== '.') emptied.add(folder)
    } catch (error) {
      result.notRestored.push({ path: change.path, why: whyNotRestored(error, tree.path) })
    }
  }
  // Deepest first, so a folder that held only folders goes too.
  const deepestFirst = [...emptied].sort((a, b) => b.split('/').length - a.split('/').length)
  for (const folder of deepestFirst) await tree.pruneEmpty(folder).catch(() => undefined)
}

/** The files to write, by blob (files with the same bytes share one), in path order. */
function byBlob(back: readonly RawChange[], result: PutBack): Map<string, RawChange[]> {
  const writes = new Map<string, RawChange[]>()
  for (const change of [...back].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (change.mode === GITLINK) {
      result.notRestored.push({ path: change.path, why: NESTED })
      continue
    }
    writes.set(change.oid, [...(writes.get(change.oid) ?? []), change])
  }
  return writes
}

async function writeAll(
  tree: JailedTree,
  writes: ReadonlyMap<string, RawChange[]>,
  first: Promise<IteratorResult<Map<string, Buffer>>>,
  batches: AsyncGenerator<Map<string, Buffer>>,
  result: PutBack
): Promise<void> {
  const left = new Set(writes.keys())
  try {
    for (let next = await first; next.done !== true; next = await batches.next()) {
      const batch: [RawChange, Buffer][] = []
      for (const [oid, bytes] of next.value) {
        left.delete(oid)
        for (const change of writes.get(oid) ?? []) batch.push([change, bytes])
      }
      // A few at a time: each write is several system calls, mostly waiting on the disk.
      await inParallel(batch, WRITERS, ([change, bytes]) => writeOne(tree, change, bytes, result))
    }
  } catch (error) {
    // The store could not be read: what was not written yet is listed, never half-written.
    const why = `it could not be read from the checkpoint store: ${messageOf(error)}`
    for (const oid of left) {
      for (const change of writes.get(oid) ?? [])
        result.notRestored.push({ path: change.path, why })
    }
    return
  }
  for (const oid of left) {
    for (const change of writes.get(oid) ?? []) {
      result.notRestored.push({ path: change.path, why: 'it is missing from the checkpoint store' })
    }
  }
}

async function writeOne(
  tree: JailedTree,
  change: RawChange,
  bytes: Buffer,
  result: PutBack
): Promise<void> {
  // A file deleted since is brought back only where nothing is: never over one made since.
  const replace = change.change === 'changed'
  try {
    if (change.mode === SYMLINK) await tree.putLink(change.path, bytes, replace)
    else await tree.putFile(change.path, bytes, change.mode === EXECUTABLE ? 0o777 : 0o666, replace)
    result.done.push({ path: change.path, change: change.change })
  } catch (error) {
    result.notRestored.push({ path: change.path, why: whyNotRestored(error, tree.path) })
  }
}

/** An index entry: mode, blob and path (mode ABSENT: no entry). */
type IndexEntry = [mode: string, oid: string, path: string]

/** The entry the checkpoint restored to has for a file. */
const thenSide = (change: RawChange): IndexEntry => [change.mode, change.oid, change.path]
/** The entry the folder had before the restore. */
const nowSide = (change: RawChange): IndexEntry => [change.nowMode, change.nowOid, change.path]

/**
 * Sets index entries, removing those ABSENT. Entries set so have no file times, so the next
 * checkpoint reads those files again rather than trust them.
 */
async function setIndex(io: RestoreIo, entries: readonly IndexEntry[]): Promise<void> {
  if (entries.length === 0) return
  const lines = entries.map(([mode, oid, file]) =>
    mode === ABSENT ? `0 ${NO_OID}\t${file}` : `${mode} ${oid}\t${file}`
  )
  await io.git(['update-index', '-z', '--index-info'], { input: `${lines.join('\0')}\0` })
}

/** Runs `act` on each of `items`, at most `width` at once. */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  act: (item: T) => Promise<void>
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await act(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker))
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0
}

/** Files written at once by a restore. */
const WRITERS = 8
const ABSENT = '000000'
const NO_OID = '0'.repeat(40)
const EXECUTABLE = '100755'
const SYMLINK = '120000'
const GITLINK = '160000'
const NESTED = 'it is a git repository of its own, which checkpoints do not hold'
