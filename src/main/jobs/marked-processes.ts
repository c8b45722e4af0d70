import { readFileSync, statSync } from 'node:fs'
import { markersInEnviron, parseMarker, type MarkerEntry } from './job-marker'
import { procPids, readProcStat, stillRunning } from './process-group'

/** Which marked processes an operation is about, judged by their marker's entries. */
export type MarkerMatch = (entries: MarkerEntry[]) => boolean

/** A running process that carries a job marker. */
interface MarkedProcess {
  pid: number
  startTime: number
  entries: MarkerEntry[]
}

/**
 * How many times {@link killMarked} scans before it gives up on a process that will not die
 * (one in uninterruptible sleep on a dead network mount), and how long it waits between scans:
 * short at first, since a killed process is usually gone within milliseconds, and about five
 * seconds in all.
 */
const MAX_ROUNDS = 110
const pause = (round: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.min(2 ** round, 50)))

/**
 * The running processes of this user that carry a marker `match` accepts (Linux: from
 * /proc/<pid>/environ; nothing elsewhere). This process is never among them. A zombie has no
 * environment left to read, so the dead are not found.
 */
export function findMarked(match: MarkerMatch): MarkedProcess[] {
  const uid = process.getuid?.()
  const found: MarkedProcess[] = []
  for (const pid of procPids()) {
    if (pid === process.pid) continue
    let environ: string
    try {
      // Another user's processes are never ours to end, even when we could (as root).
      if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) continue
      // latin1 maps every byte to one character: the marker is ASCII, the rest may be anything.
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1')
    } catch {
      // Exited while we looked, or not readable (a setuid program): not ours to touch.
      continue
    }
    const values = markersInEnviron(environ)
    if (values.length === 0) continue
    const entries = values.flatMap(parseMarker)
    if (!match(entries)) continue
    const stat = readProcStat(pid)
    if (stat) found.push({ pid, startTime: stat.startTime, entries })
  }
  return found
}

/** A matcher for the processes of the job (or MCP server) `token`. */
export function ofJob(token: string): MarkerMatch {
  return (entries) => entries.some((entry) => entry.token === token)
}

/** Sends `signal` once to every process `match` accepts; returns the pids signalled. */
export function signalMarked(match: MarkerMatch, signal: NodeJS.Signals): number[] {
  const signalled: number[] = []
  for (const { pid } of findMarked(match)) {
    try {
      process.kill(pid, signal)
      signalled.push(pid)
    } catch {
      // Gone already.
    }
  }
  return signalled
}

/** What {@link killMarked} did: the pids it killed, and those still running when it gave up. */
export interface KillResult {
  killed: number[]
  survivors: number[]
}

/**
 * SIGKILLs every process `match` accepts, and again, until a scan made after all of them died
 * finds none: a process may fork between a scan and its kill, and its child is only seen by the
 * next scan. Resolves when they are all dead, or, after about five seconds, with the ones that
 * would not die.
 */
export async function killMarked(match: MarkerMatch): Promise<KillResult> {
  const killed = new Set<number>()
  const dying = new Map<number, number>()
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = findMarked(match)
    for (const { pid, startTime } of found) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Gone already.
        continue
      }
      killed.add(pid)
      dying.set(pid, startTime)
    }
    for (const [pid, startTime] of dying) if (!stillRunning(pid, startTime)) dying.delete(pid)
    if (found.length === 0 && dying.size === 0) break
    await pause(round)
  }
  return { killed: [...killed], survivors: [...dying.keys()] }
}
