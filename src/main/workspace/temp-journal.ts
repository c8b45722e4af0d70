import { randomBytes } from 'node:crypto'
import { mkdir, lstat, readdir, readFile, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The temporary file of an atomic write: `.<up to 32 characters of the name>.mecatl-<12 hex>.tmp`.
 * Distinctive, so that a sweep can tell Mecatl's own from anything a person or a tool made.
 */
const TEMP_NAME = /^\.[^/]{1,32}\.mecatl-([0-9a-f]{12})\.tmp$/su
const RECORD_NAME = /^(\d+)-([0-9a-f]{12})\.json$/

/** A fresh temporary name beside `name`, and the random part that ties it to its record. */
export function tempNameFor(name: string): { temp: string; token: string } {
  const token = randomBytes(6).toString('hex')
  // Part of the name only: the whole name plus the suffix could pass the filesystem's limit.
  const stem = Array.from(name).slice(0, 32).join('')
  return { temp: `.${stem}.mecatl-${token}.tmp`, token }
}

/** Whether `name` is the name of one of Mecatl's temporary files. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name)
}

/**
 * The journals in use, newest last. A temporary file belongs to the process that made it, so
 * the journal is the process's, set by the core that runs in it (tests run several, one after
 * another or side by side; any of theirs will do, as records carry the process id).
 */
const journals: string[] = []

/** Records in-flight temporary files in `dir` from now on, until released. */
export function useTempJournal(dir: string): void {
  journals.push(dir)
}

export function releaseTempJournal(dir: string): void {
  const at = journals.lastIndexOf(dir)
  if (at !== -1) journals.splice(at, 1)
}

/** An in-flight temporary file's record; ended once the file is renamed or removed. */
export interface JournalEntry {
  end(): Promise<void>
}

const none: JournalEntry = { end: async () => undefined }

/**
 * Writes a record of the temporary file at `tempPath` (absolute), before it is created, so a
 * process killed mid-write leaves something that says which file to remove at the next start.
 */
export async function recordTemp(tempPath: string, token: string): Promise<JournalEntry> {
  const dir = journals.at(-1)
  if (dir === undefined) return none
  const record = path.join(dir, `${process.pid}-${token}.json`)
  await mkdir(dir, { recursive: true })
  await writeFile(record, JSON.stringify({ temp: tempPath }), { flag: 'wx', mode: 0o600 })
  return { end: () => unlink(record).catch(() => undefined) }
}

/**
 * Removes the temporary files that dead processes left in flight (a Write killed mid-way), as
 * their records in `dir` name them, and the records. Nothing else is touched: a record of a
 * process still running is kept, and a file is removed only if its name is a Mecatl temporary
 * name with the record's own token and it is a regular file, never through a final link. No
 * project tree is scanned. Returns the files removed.
 */
export async function sweepTempJournal(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const match = RECORD_NAME.exec(name)
    if (!match || isAlive(Number(match[1]))) continue
    const record = path.join(dir, name)
    const temp = await recordedTemp(record)
    const tempMatch = temp === null ? null : TEMP_NAME.exec(path.basename(temp))
    if (temp !== null && tempMatch?.[1] === match[2]) {
      const stats = await lstat(temp).catch(() => null)
      if (
        stats?.isFile() &&
        (await unlink(temp).then(
          () => true,
          () => false
        ))
      ) {
        removed.push(temp)
      }
    }
    await unlink(record).catch(() => undefined)
  }
  return removed
}

async function recordedTemp(record: string): Promise<string | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(record, 'utf8'))
    if (typeof parsed !== 'object' || parsed === null || !('temp' in parsed)) return null
    const temp = parsed.temp
    return typeof temp === 'string' && path.isAbsolute(temp) ? temp : null
  } catch {
    // Cut short when its writer was killed: nothing to go by, so nothing is removed but it.
    return null
  }
}

/** A process that exists (EPERM: it does, but is not ours to signal). */
function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
