import type { Dirent } from 'node:fs'
import path from 'node:path'
import { JailedDir } from '../../../workspace/jailed-dir'
import type { IgnoreRules } from './ignore-rules'

/** Directories read at once: enough to keep the disk busy, few enough not to flood the pool. */
const CONCURRENT_READS = 16

export interface WalkOptions {
  /** The project folder (canonical); every path handed out is relative to it, with `/`. */
  root: string
  /** The directory to walk, relative to the root (`''` for the root itself). */
  start: string
  /** The project's ignore rules, or null to include ignored files. */
  rules: IgnoreRules | null
  signal?: AbortSignal
}

/**
 * Calls `onFile` with every regular file under `start`, in no particular order. Symbolic links
 * are neither followed nor reported, so a link cannot lead the walk out of the project folder;
 * `.git` is always skipped, and FIFOs, sockets and devices are left alone. `onFile` returns
 * false to stop the walk. Unreadable directories are skipped.
 */
export async function walkFiles(
  options: WalkOptions,
  onFile: (relative: string) => boolean | void
): Promise<void> {
  await walkEntries(options, (relative, isDirectory) => isDirectory || onFile(relative) !== false)
}

/**
 * As walkFiles, and directories are reported too (before the walk enters them): every regular
 * file and directory under `start` that the rules do not exclude. `onEntry` returns false to
 * stop. Each directory is listed through a descriptor proved to be that directory (JailedDir),
 * so one swapped for a link after its parent was listed is not entered.
 */
export async function walkEntries(
  options: WalkOptions,
  onEntry: (relative: string, isDirectory: boolean) => boolean
): Promise<void> {
  const { root, rules, signal } = options
  // Rules of the folders above the start apply below it too.
  await rules?.loadAncestors(options.start)
  const queue: string[] = [options.start]
  let stopped = false
  let active = 0

  await new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      if (stopped || signal?.aborted) queue.length = 0
      while (active < CONCURRENT_READS && queue.length > 0) {
        const dir = queue.pop() as string
        active++
        visit(dir).then(
          () => {
            active--
            pump()
          },
          (error: unknown) => {
            stopped = true
            reject(error)
          }
        )
      }
      if (active === 0 && queue.length === 0) resolve()
    }

    const visit = async (dir: string): Promise<void> => {
      let entries: Dirent[]
      try {
        entries = await listExactly(path.join(root, dir))
      } catch {
        // Unreadable, gone, or swapped for a link since its parent was listed: not walked.
        return
      }
      if (rules && entries.some((e) => e.name === '.gitignore' && e.isFile())) {
        await rules.load(dir)
      }
      for (const entry of entries) {
        if (stopped) return
        if (entry.name === '.git') continue
        const relative = dir === '' ? entry.name : `${dir}/${entry.name}`
        const isDirectory = entry.isDirectory()
        if (!isDirectory && !entry.isFile()) continue
        if (rules?.isIgnoredIn(dir, relative, isDirectory)) continue
        if (!onEntry(relative, isDirectory)) {
          stopped = true
          return
        }
        if (isDirectory) queue.push(relative)
      }
    }

    pump()
  })
}

/**
 * The entries of the directory really at `absolute`: a directory replaced by a link after its
 * parent was listed would otherwise lead the walk out of the folder (see JailedDir).
 */
async function listExactly(absolute: string): Promise<Dirent[]> {
  const dir = await JailedDir.openExact(absolute)
  try {
    return await dir.readdir()
  } finally {
    await dir.close()
  }
}
