import { readdirSync, readFileSync } from 'node:fs'

/** Sends `signal` to every process in the group `pgid`; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/** Whether the process `pid` still exists. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The processes whose session is `sid` (Linux, from /proc): a command that made itself a new
 * process group (`set -m`, a subshell with job control) is still in the pty's session.
 */
export function sessionMembers(sid: number): number[] {
  if (process.platform !== 'linux') return []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const members: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[3]) === sid) members.push(Number(entry))
    } catch {
      // Exited while we looked.
    }
  }
  return members
}

/**
 * Signals everything a pty's leader started: its process group and, where /proc tells, every
 * other process of its session. The leader is a session and group leader (node-pty runs it
 * after setsid), so the group id and the session id are its pid.
 */
export function signalTree(leader: number, signal: NodeJS.Signals): void {
  signalGroup(leader, signal)
  for (const pid of sessionMembers(leader)) {
    try {
      process.kill(pid, signal)
    } catch {
      // Gone already.
    }
  }
}
