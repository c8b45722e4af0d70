import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

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

/** What /proc/<pid>/stat tells of a process that the jobs need. */
export interface ProcStat {
  /** R, S, D, Z (a zombie: dead, waiting for its parent), X (dead)... */
  state: string
  /** The parent: who reaps it, and who it is the child of. */
  ppid: number
  sid: number
  /** Clock ticks after boot: with the pid, names one process even after the pid is reused. */
  startTime: number
}

/** /proc/<pid>/stat (Linux), or null when there is no such process or no /proc. */
export function readProcStat(pid: number | 'self'): ProcStat | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const startTime = Number(fields[19])
  const ppid = Number(fields[1])
  const sid = Number(fields[3])
  if (![startTime, ppid, sid].every(Number.isInteger) || !fields[0]) return null
  return { state: fields[0], ppid, sid, startTime }
}

/** Whether the process `pid` that started at `startTime` still runs (a zombie does not). */
export function stillRunning(pid: number, startTime: number): boolean {
  const stat = readProcStat(pid)
  return stat !== null && stat.startTime === startTime && stat.state !== 'Z' && stat.state !== 'X'
}

/** The numeric entries of /proc: every process this one can see (none without /proc). */
export function procPids(): number[] {
  if (process.platform !== 'linux') return []
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
  } catch {
    return []
  }
}

/** Every process this one can see, with its /proc/<pid>/stat (Linux; none elsewhere). */
export function procStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>()
  for (const pid of procPids()) {
    const stat = readProcStat(pid)
    if (stat) stats.set(pid, stat)
  }
  return stats
}

/**
 * The inode of the pid namespace process `pid` is in (its pids count there), or null where it
 * cannot be read (no /proc, or the process is gone).
 */
export function pidNamespaceOf(pid: number | 'self'): number | null {
  try {
    const inode = /^pid:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/ns/pid`))?.[1]
    return inode === undefined ? null : Number(inode)
  } catch {
    return null
  }
}

/**
 * The processes whose session is `sid` (Linux, from /proc): a command that made itself a new
 * process group (`set -m`, a subshell with job control) is still in the pty's session.
 */
export function sessionMembers(sid: number): number[] {
  return procPids().filter((pid) => readProcStat(pid)?.sid === sid)
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
