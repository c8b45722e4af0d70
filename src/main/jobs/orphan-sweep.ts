import { readFileSync } from 'node:fs'
import {
  JOB_MARKER_VAR,
  markersInEnviron,
  parseMarker,
  selfOwner,
  type MarkerEntry,
  type MarkerOwner
} from './job-marker'
import { killMarked, type KillResult } from './marked-processes'
import { stillRunning } from './process-group'

/**
 * Ends what the jobs and MCP servers of a Mecatl that was killed (SIGKILL, a crash, a power cut
 * of the window) left running: nobody was there to end them with their job or server. A process
 * goes only when its marker proves it a job's or a server's and names an owner that is gone: its
 * pid not running, or running with another start time (the pid was reused). Never a process
 * without a marker, never one whose owner runs (another Mecatl, or this one), never one whose
 * owner is in another pid namespace (its pid means nothing here), and never the jobs this
 * process itself runs inside (a Mecatl started from a Mecatl's Shell). Linux only: elsewhere it
 * finds nothing.
 */
export function sweepOrphanedJobs(): Promise<KillResult> {
  const me = selfOwner()
  const enclosing = new Set(inheritedTokens())
  const verdicts = new Map<string, boolean>()
  const ownerGone = (owner: MarkerOwner): boolean => {
    if (owner.pidNamespace !== me.pidNamespace) return false
    if (owner.pid === me.pid) return owner.startTime !== me.startTime
    const key = `${owner.pid}.${owner.startTime}`
    let gone = verdicts.get(key)
    if (gone === undefined) {
      gone = !stillRunning(owner.pid, owner.startTime)
      verdicts.set(key, gone)
    }
    return gone
  }
  const orphaned = (entries: MarkerEntry[]): boolean =>
    entries.some((entry) => !enclosing.has(entry.token) && ownerGone(entry.owner))
  return killMarked(orphaned)
}

/** The job tokens this process runs under, as its environment has them now and had at start. */
function inheritedTokens(): string[] {
  let environ = ''
  try {
    environ = readFileSync('/proc/self/environ', 'latin1')
  } catch {
    // No /proc: then there is nothing to sweep either.
  }
  return [process.env[JOB_MARKER_VAR], ...markersInEnviron(environ)]
    .flatMap(parseMarker)
    .map((entry) => entry.token)
}
