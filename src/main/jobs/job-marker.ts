import { randomBytes } from 'node:crypto'
import { pidNamespaceOf, readProcStat } from './process-group'

/**
 * The variable that marks every process a job started, so the job can find them all when it
 * ends. A local MCP server's processes carry it the same way, with a token of the server's own
 * (see mcp/server-tree.ts): what follows holds for them as for a job. A command's children leave its process group and session as they please (`setsid`, a
 * daemon's double fork, `nohup`), so neither names them all; the environment does, because every
 * process inherits it: the job's shell, what the shell starts, and what those start. Its value
 * names the job and the Mecatl process that ran it (pid, that pid's start time so a reused pid
 * is not taken for it, and its pid namespace, where that pid means something), so what a
 * killed Mecatl left behind can be told from what a running one still owns. A process that
 * clears or rewrites its environment (`env -i`, `sudo`, a service manager starting it) escapes
 * the marker: only the process group and the session then reach it.
 */
export const JOB_MARKER_VAR = 'MECATL_JOB'

/**
 * A Mecatl run inside a job of another Mecatl (its own test suite, run from Shell) adds its
 * token to the one it inherited, so the outer job's end still reaches the inner jobs' processes.
 * Bounded, so a value set by hand cannot grow the environment without end.
 */
const MAX_ENTRIES = 8
const ENTRY = /^(\d+)\.(\d+)\.(\d+)\.([0-9a-f]{16})$/

/** The Mecatl process a marker names. */
export interface MarkerOwner {
  pid: number
  startTime: number
  /** The inode of its pid namespace: a pid from another namespace names another process. */
  pidNamespace: number
}

/** One entry of a marker's value: the job `token` of the Mecatl process `owner`. */
export interface MarkerEntry {
  owner: MarkerOwner
  token: string
}

let self: MarkerOwner | null = null

/** This process, as markers name it (start time and namespace 0 where there is no /proc). */
export function selfOwner(): MarkerOwner {
  self ??= {
    pid: process.pid,
    startTime: readProcStat('self')?.startTime ?? 0,
    pidNamespace: pidNamespaceOf('self') ?? 0
  }
  return self
}

/** A new job's (or server's) token, unique to it, naming this process as its owner. */
export function newJobToken(): string {
  const { pid, startTime, pidNamespace } = selfOwner()
  return `${pid}.${startTime}.${pidNamespace}.${randomBytes(8).toString('hex')}`
}

/** The entries of a marker's value; anything malformed is not ours and is left out. */
export function parseMarker(value: string | undefined): MarkerEntry[] {
  const entries: MarkerEntry[] = []
  for (const part of (value ?? '').split(':')) {
    const match = ENTRY.exec(part)
    if (!match) continue
    entries.push({
      owner: { pid: Number(match[1]), startTime: Number(match[2]), pidNamespace: Number(match[3]) },
      token: part
    })
  }
  return entries
}

/** The marker value a job with `token` runs under, given the one this process inherited. */
export function markerValue(inherited: string | undefined, token: string): string {
  const outer = parseMarker(inherited).map((entry) => entry.token)
  return [...outer.slice(-(MAX_ENTRIES - 1)), token].join(':')
}

/** The marker values in an environment block as /proc/<pid>/environ holds it (NUL-separated). */
export function markersInEnviron(environ: string): string[] {
  const prefix = `${JOB_MARKER_VAR}=`
  // A process may carry the variable twice (execve allows it): every copy counts.
  return environ
    .split('\0')
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => entry.slice(prefix.length))
}
