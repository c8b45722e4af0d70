import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'

const PREFIX = 'mecatl-jobs-'
/** `mecatl-jobs-<pid>-<6 characters from mkdtemp>`: nothing else in the temp folder is ours. */
const ROOT_NAME = /^mecatl-jobs-(\d+)-[A-Za-z0-9]{6}$/
const MARKER = '.mecatl-jobs.json'
const MARKER_MAX_BYTES = 1024

const markerSchema = z.strictObject({
  app: z.literal('mecatl'),
  pid: z.number().int().positive(),
  createdAt: z.number()
})

/**
 * The private temporary directories of one process's shell commands: one root per process,
 * proved ours by a marker file, with a directory per command (its `TMPDIR`) removed when the
 * command ends. A root left by a crash is removed at the next start by
 * {@link cleanAbandonedJobDirs}.
 */
export class JobTempDirs {
  private root: Promise<string> | null = null

  constructor(private readonly base: string = os.tmpdir()) {}

  /** Creates the command's directory (and the root, the first time). */
  async create(id: string): Promise<string> {
    const dir = path.join(await this.ensureRoot(), id)
    await mkdir(dir, { mode: 0o700 })
    return dir
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true, maxRetries: 2 })
  }

  /** Removes the root and everything under it. */
  async dispose(): Promise<void> {
    const root = this.root
    this.root = null
    if (root) await this.remove(await root.catch(() => ''))
  }

  private ensureRoot(): Promise<string> {
    this.root ??= (async () => {
      const root = await mkdtemp(path.join(this.base, `${PREFIX}${process.pid}-`))
      const marker = { app: 'mecatl', pid: process.pid, createdAt: Date.now() }
      await writeFile(path.join(root, MARKER), JSON.stringify(marker), { mode: 0o600 })
      return root
    })()
    return this.root
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the roots that earlier Mecatl processes left in the temp folder when they crashed. A
 * directory is removed only when everything proves it ours: its name, being a real directory
 * owned by this user, a valid marker file naming the same process, and that process being gone.
 * Returns the directories removed.
 */
export async function cleanAbandonedJobDirs(
  base: string = os.tmpdir(),
  isAlive: (pid: number) => boolean = processAlive
): Promise<string[]> {
  const removed: string[] = []
  const names = await readdir(base).catch(() => [])
  for (const name of names) {
    const match = ROOT_NAME.exec(name)
    if (!match) continue
    const dir = path.join(base, name)
    const pid = Number(match[1])
    if (pid === process.pid || isAlive(pid)) continue
    if (!(await provedOurs(dir, pid))) continue
    await rm(dir, { recursive: true, force: true, maxRetries: 2 }).then(
      () => removed.push(dir),
      () => undefined
    )
  }
  return removed
}

async function provedOurs(dir: string, pid: number): Promise<boolean> {
  const uid = process.getuid?.()
  try {
    const stats = await lstat(dir)
    if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) return false
    const markerPath = path.join(dir, MARKER)
    const marker = await lstat(markerPath)
    if (!marker.isFile() || marker.size > MARKER_MAX_BYTES) return false
    if (uid !== undefined && marker.uid !== uid) return false
    const parsed = markerSchema.safeParse(JSON.parse(await readFile(markerPath, 'utf8')))
    return parsed.success && parsed.data.pid === pid
  } catch {
    return false
  }
}
