// Where the processes a test server left behind are, and whether they still run, as seen from
// the host: a server in a PID namespace of its own knows its processes by that namespace's pids,
// so a record (see spawning-mcp-server.mjs) names a process by its namespace, its pid there and
// its start time, and is looked for in /proc. Not shipped: only test files import it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * A shell script that writes the record of the shell running it to the file named by its first
 * argument (whole, then renamed, so a reader never sees half of one), then becomes `sleep 1000`,
 * keeping its pid and start time. In /proc/<pid>/stat the start time is the 22nd field.
 */
export const RECORD_THEN_SLEEP = [
  'file=$1',
  'read -r stat < /proc/$$/stat',
  'set -- $stat',
  'echo "$$ $(readlink /proc/$$/ns/pid) ${22}" > "$file.tmp" && mv "$file.tmp" "$file"',
  'exec sleep 1000',
  ''
].join('\n')

/** Parses one record line (`<pid> <namespace> <start time>`). */
export function parseRecord(line: string): LeftoverRecord {
  const [pid, namespace, start] = line.trim().split(' ')
  if (!pid || !namespace || !start) throw new Error(`not a record: ${line}`)
  return { pid: Number(pid), namespace, startTime: Number(start) }
}

/** One process as it wrote itself down: its pid in its own namespace, that namespace, its start. */
export interface LeftoverRecord {
  pid: number
  namespace: string
  startTime: number
}

/** What the `spawn` tool answers: the server's own record and its three leftovers'. */
export interface SpawnRecords {
  server: LeftoverRecord
  leftovers: LeftoverRecord[]
}

/** The `spawn` tool's answer, read; throws when a leftover did not write its record. */
export function parseSpawnRecords(text: string): SpawnRecords {
  const raw = JSON.parse(text) as Record<string, string | null>
  const parse = (kind: string): LeftoverRecord => {
    const line = raw[kind]
    if (!line) throw new Error(`no record for ${kind}: ${text}`)
    return parseRecord(line)
  }
  return {
    server: parse('server'),
    leftovers: ['setsid', 'doubleFork', 'deaf'].map(parse)
  }
}

/**
 * The host pid of the process `record` names while it runs (not a zombie): same pid namespace,
 * same pid there, same start time; null when it is gone, whatever now has its pid.
 */
export function hostPid(record: LeftoverRecord): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[19]) !== record.startTime || fields[0] === 'Z') continue
      if (readlinkSync(`/proc/${entry}/ns/pid`) !== record.namespace) continue
      const nspid = /^NSpid:\s*(.+)$/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]
      if (Number(nspid?.trim().split(/\s+/).at(-1)) === record.pid) return Number(entry)
    } catch {
      // Gone while we looked.
    }
  }
  return null
}

/** The records of processes that still run. */
export function stillRunning(records: readonly LeftoverRecord[]): LeftoverRecord[] {
  return records.filter((record) => hostPid(record) !== null)
}

/** SIGKILLs what still runs of `records` (cleanup after a failed test), never a reused pid. */
export function killRecorded(records: readonly LeftoverRecord[]): void {
  for (const record of records) {
    const pid = hostPid(record)
    if (pid === null) continue
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone since.
    }
  }
}
