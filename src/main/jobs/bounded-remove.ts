import { chmod, lstat, readdir, rmdir, unlink } from 'node:fs/promises'
import path from 'node:path'
import { ownedBy } from './temp-lease'

/**
 * How much file-system work a reaper pass may still do: each lstat, readdir, unlink or rmdir
 * takes one. Out of work (or aborted), a removal stops where it is and the next pass goes on,
 * so one huge leftover never makes a pass long.
 */
export class WorkBudget {
  constructor(
    private left: number,
    private readonly signal?: AbortSignal
  ) {}

  take(): boolean {
    if (this.left <= 0 || this.signal?.aborted) return false
    this.left--
    return true
  }

  get spent(): boolean {
    return this.left <= 0 || (this.signal?.aborted ?? false)
  }
}

/**
 * Removes `target` and everything under it within the budget; true when it is gone. A link is
 * removed, never followed; a directory of another user is left, and with it everything above
 * it. A directory the command made unreadable or unwritable (chmod 000) is opened up first, as
 * it is this user's own.
 */
export async function removeTree(
  target: string,
  budget: WorkBudget,
  uid: number | undefined
): Promise<boolean> {
  if (!budget.take()) return false
  let stats
  try {
    stats = await lstat(target)
  } catch (error) {
    return code(error) === 'ENOENT'
  }
  if (!stats.isDirectory()) return gone(() => unlink(target))
  if (!ownedBy(stats, uid)) return false
  if ((stats.mode & 0o700) !== 0o700 && !(await gone(() => chmod(target, 0o700)))) return false
  if (!budget.take()) return false
  let names: string[]
  try {
    names = await readdir(target)
  } catch (error) {
    return code(error) === 'ENOENT'
  }
  for (const name of names) {
    if (!(await removeTree(path.join(target, name), budget, uid))) return false
  }
  if (!budget.take()) return false
  return gone(() => rmdir(target))
}

/** Runs a removal; true when it worked or there was nothing left to remove. */
async function gone(remove: () => Promise<void>): Promise<boolean> {
  try {
    await remove()
    return true
  } catch (error) {
    return code(error) === 'ENOENT'
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code
}
