import { readFileSync } from 'node:fs'
import { pidNamespaceOf, procStats, type ProcStat } from '../jobs/process-group'
import { findOnPath } from './backend'
import { runProbe } from './probe-run'

/**
 * Why a local MCP server runs in a PID namespace of its own, even when it is not sandboxed. A
 * server is a program that starts what it likes: a helper in a session of its own (`setsid`), a
 * daemon's double fork, a child that ignores SIGTERM. Nothing in the server's process group,
 * session or parentage leads to those any more, so they outlived the server, its restarts and
 * Mecatl itself. A PID namespace needs no bookkeeping: the server runs under bubblewrap's small
 * init as the first process of a namespace of its own, and when the server ends, the init ends,
 * and the kernel ends every process still in the namespace, however it got there. With
 * --die-with-parent the whole namespace also ends when Mecatl does, even killed outright.
 *
 * Nothing else changes for the server: the whole file system as it is (`--dev-bind / /`), the
 * same network, user, environment and working directory. Only /proc is the namespace's, so the
 * server sees its own processes there, and its pids (`$$`, `process.pid`) are the namespace's,
 * not the host's. As root no user namespace is needed; as an ordinary user bubblewrap makes one
 * that maps the user to itself. bubblewrap also sets no_new_privs, so a setuid program (sudo)
 * run by the server gains nothing.
 *
 * Where bubblewrap is missing or namespaces are refused (a container without them, Flatpak,
 * macOS), a probe finds out once per process and servers run as they are: their processes are
 * then found and ended by the marker in their environment (jobs/job-marker.ts), which every
 * server carries either way, so the sweep at start reaches what a killed Mecatl left.
 */
const NAMESPACE_ARGS = [
  '--dev-bind',
  '/',
  '/',
  '--unshare-pid',
  '--proc',
  '/proc',
  '--die-with-parent'
]

/**
 * bubblewrap sets PWD for the command whatever it is told (--unsetenv comes too early), and a
 * server's environment is an allowlist: `env -u PWD` takes it out again and execs the command in
 * its place. A command named with a `=` would be taken by env for a variable: it keeps the PWD.
 */
const WITHOUT_PWD = ['/usr/bin/env', '-u', 'PWD']

const PROBE_TIMEOUT_MS = 5_000

/** A command run in a PID namespace of its own, or why that cannot be done here. */
export type PidNamespace =
  | {
      usable: true
      /** `command args…` run in a namespace of its own, starting in `cwd`. */
      wrap(
        command: string,
        args: readonly string[],
        cwd: string
      ): { command: string; args: string[] }
    }
  | { usable: false; why: string }

/** Each bwrap's probe, once per process: null when it made a namespace, else why not. */
const probes = new Map<string, Promise<string | null>>()

/**
 * Whether commands can run in a PID namespace of their own here, with the bwrap the `env`'s
 * PATH finds; the first call for a bwrap runs it once to find out, later ones reuse the answer.
 */
export async function pidNamespace(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform
): Promise<PidNamespace> {
  if (platform !== 'linux') {
    return { usable: false, why: `PID namespaces are Linux's; this is ${platform}` }
  }
  const bwrap = findOnPath('bwrap', { PATH: env.PATH })
  if (!bwrap) return { usable: false, why: 'bubblewrap is not installed (no bwrap on PATH)' }
  let probe = probes.get(bwrap)
  if (!probe) {
    probe = probeNamespace(bwrap, env.PATH ?? '')
    probes.set(bwrap, probe)
  }
  const why = await probe
  if (why !== null) return { usable: false, why }
  return {
    usable: true,
    wrap: (command, args, cwd) => ({
      command: bwrap,
      args: [
        ...NAMESPACE_ARGS,
        '--chdir',
        cwd,
        '--',
        ...(command.includes('=') ? [] : WITHOUT_PWD),
        command,
        ...args
      ]
    })
  }
}

/**
 * Runs a shell under the wrapper, as a server is run, that prints its own pid: in a new namespace
 * it comes right after bubblewrap's init, a pid no process of the host's namespace has.
 */
async function probeNamespace(bwrap: string, PATH: string): Promise<string | null> {
  const shell = ['/bin/sh', '-c', 'echo "$$"']
  const run = await runProbe(bwrap, [...NAMESPACE_ARGS, '--', ...WITHOUT_PWD, ...shell], {
    timeoutMs: PROBE_TIMEOUT_MS,
    env: { PATH }
  })
  if (run.error !== null) return `${bwrap} could not be run: ${run.error}`
  const said = run.output.trim()
  if (run.code === 0 && /^[12]$/.test(said)) return null
  const how = run.signal ? `killed by ${run.signal}` : `exit ${run.code}`
  return `bubblewrap could not make a PID namespace (${how}): ${said.slice(0, 300) || 'no output'}`
}

/** One process for good: its pid, and when it started (so a reused pid is not taken for it). */
export interface ProcessRef {
  pid: number
  startTime: number
}

/** What a wrapper that made a PID namespace runs: the namespace's init and the command. */
export interface NamespacedTree {
  /** bubblewrap's init, pid 1 inside: once it is gone, nothing of the namespace is left. */
  init: ProcessRef
  /** The command the wrapper ran, seen from here; null once it has ended. */
  command: ProcessRef | null
}

/**
 * What runs in the PID namespace that `outer` (a bubblewrap this process started: the wrapper
 * above or the sandbox's) made, or null when its child is in `outer`'s own namespace (no
 * namespace, or not one yet). The command is the first process the init started: the lowest pid
 * among its children as the namespace counts them, since orphans of the command come later.
 */
export function namespaceUnder(outer: number): NamespacedTree | null {
  const own = pidNamespaceOf(outer)
  if (own === null) return null
  const stats = procStats()
  const childrenOf = (parent: number): [number, ProcStat][] =>
    [...stats].filter(([, stat]) => stat.ppid === parent)
  for (const [init, stat] of childrenOf(outer)) {
    const inner = pidNamespaceOf(init)
    if (inner === null || inner === own) continue
    const first = childrenOf(init)
      .map(([pid, { startTime }]) => ({ pid, startTime, inside: innermostPid(pid) }))
      .filter((entry) => entry.inside !== null)
      .sort((a, b) => (a.inside ?? 0) - (b.inside ?? 0))[0]
    return {
      init: { pid: init, startTime: stat.startTime },
      command: first ? { pid: first.pid, startTime: first.startTime } : null
    }
  }
  return null
}

/** The pid process `pid` has in the innermost namespace it is in (the last of NSpid). */
function innermostPid(pid: number): number | null {
  try {
    const line = /^NSpid:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    const last = line?.trim().split(/\s+/).at(-1)
    return last === undefined ? null : Number(last)
  } catch {
    return null
  }
}
