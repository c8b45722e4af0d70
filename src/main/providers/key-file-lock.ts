import { randomBytes } from 'node:crypto'
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises'

/** How long a change to the key file waits for another process's change before giving up. */
const WAIT_MS = 15_000
const POLL_MS = 20

/**
 * Runs `change` while holding `<file>.lock`, so two processes (two `mecatl keys set`, or the CLI
 * beside browser mode) that read, change and write the key file one after the other never lose
 * each other's key. The lock is made whole, the holder's pid already in it, by linking a
 * temporary file to its name: link() fails when the name exists, and nobody ever sees an empty
 * lock. A lock whose holder is dead (killed mid-change) is taken over; one held past the wait is
 * reported with what to do, never broken.
 */
export async function withFileLock<T>(file: string, change: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`
  const mine = `${lock}.${process.pid}.${randomBytes(6).toString('hex')}`
  await writeFile(mine, String(process.pid), { mode: 0o600 })
  try {
    await acquire(lock, mine)
  } finally {
    await unlink(mine).catch(() => undefined)
  }
  try {
    return await change()
  } finally {
    await unlink(lock).catch(() => undefined)
  }
}

async function acquire(lock: string, mine: string): Promise<void> {
  // Bounded: counted in polls, so a clock that jumps neither ends the wait early nor prolongs it.
  for (let polls = 0; polls * POLL_MS < WAIT_MS; polls++) {
    try {
      await link(mine, lock)
      return
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error
    }
    await takeOverIfDead(lock)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  throw new Error(
    `Another Mecatl process has been changing the key file for ${WAIT_MS / 1000} seconds (it holds ${lock}). Try again once it is done; if no Mecatl process is running, remove ${lock}.`
  )
}

/**
 * Removes a lock whose holder has died. It is renamed aside first and checked there, so that
 * two waiters who both saw the dead holder cannot both remove a lock: the second one renames
 * aside the first one's live lock, sees a live pid, and puts it back.
 */
async function takeOverIfDead(lock: string): Promise<void> {
  const holder = await holderOf(lock)
  if (holder === null || alive(holder)) return
  const aside = `${lock}.stale.${randomBytes(6).toString('hex')}`
  try {
    await rename(lock, aside)
  } catch {
    return
  }
  const moved = await holderOf(aside)
  if (moved !== null && alive(moved)) await link(aside, lock).catch(() => undefined)
  await unlink(aside).catch(() => undefined)
}

async function holderOf(lock: string): Promise<number | null> {
  const text = await readFile(lock, 'utf8').catch(() => null)
  const pid = Number(text)
  return text !== null && Number.isInteger(pid) && pid > 0 ? pid : null
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}
