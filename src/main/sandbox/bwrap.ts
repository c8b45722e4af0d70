import { lstatSync, statSync } from 'node:fs'
import path from 'node:path'
import type { ConfinementPolicy, ProxyNetwork } from './policy'

/** A command to run instead of another: the same program, inside the sandbox. */
export interface Wrapped {
  file: string
  args: string[]
}

type Mount = { kind: 'rw' | 'deny' | 'ro'; path: string }

/** Deeper paths are mounted later and win; at one path a deny beats a bind, an exception both. */
const ORDER: Record<Mount['kind'], number> = { rw: 0, deny: 1, ro: 2 }

/**
 * bubblewrap's arguments for a policy: the whole file system read-only, the project folder and
 * the writable paths read-write, the denied paths replaced by empty ones, a private /tmp, /dev
 * and /proc, its own process tree (so killing it kills everything inside) that dies with
 * Mecatl, and no network unless the policy allows it.
 */
export function bwrapArgs(policy: ConfinementPolicy, cwd: string): string[] {
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(policy.network === 'on' ? [] : ['--unshare-net']),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...hiddenDaemonSockets(policy.network === 'on')
  ]
  const proxy = typeof policy.network === 'object' ? policy.network : null
  const mounts: Mount[] = [
    { kind: 'rw', path: policy.workspace },
    ...(proxy?.socketDir ? [{ kind: 'ro' as const, path: proxy.socketDir }] : []),
    ...policy.writable.map((p) => ({ kind: 'rw' as const, path: p })),
    ...policy.denyRead.map((p) => ({ kind: 'deny' as const, path: p })),
    ...policy.readable.map((p) => ({ kind: 'ro' as const, path: p }))
  ]
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || ORDER[a.kind] - ORDER[b.kind])
  for (const mount of mounts) args.push(...mountArgs(mount))
  for (const [name, value] of Object.entries({ ...policy.env, ...proxyEnv(proxy) })) {
    args.push('--setenv', name, value)
  }
  if (proxy) args.push('--unsetenv', 'NO_PROXY', '--unsetenv', 'no_proxy')
  args.push('--chdir', cwd)
  return args
}

function mountArgs({ kind, path: at }: Mount): string[] {
  const type = kindOf(at)
  if (kind === 'rw') return type === null ? [] : ['--bind', at, at]
  if (kind === 'ro') return type === null ? [] : ['--ro-bind', at, at]
  // A denied path that does not exist cannot be made inside either: / is read-only there.
  if (type === 'dir') return ['--tmpfs', at]
  if (type === 'file') return ['--ro-bind', '/dev/null', at]
  return []
}

function kindOf(at: string): 'dir' | 'file' | null {
  try {
    return statSync(at).isDirectory() ? 'dir' : 'file'
  } catch {
    return null
  }
}

function depth(at: string): number {
  return path.resolve(at).split(path.sep).filter(Boolean).length
}

/** The usual proxy variables, pointing at the bridge inside the sandbox. */
function proxyEnv(proxy: ProxyNetwork | null): Record<string, string> {
  if (!proxy) return {}
  const url = `http://127.0.0.1:${proxy.proxyPort}`
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url }
}

/**
 * The command `file args…` run under bubblewrap (found at `bwrap`) with this policy. Through the
 * allowlist, the bridge runs first inside (its own loopback cannot reach the host's) and starts
 * the command once it listens.
 */
export function bwrapWrap(
  bwrap: string,
  policy: ConfinementPolicy,
  cwd: string,
  file: string,
  args: readonly string[]
): Wrapped {
  const proxy = typeof policy.network === 'object' ? policy.network : null
  const inner =
    proxy?.bridgePath && proxy.socketPath
      ? [
          ...bridgeRunner(),
          proxy.bridgePath,
          proxy.socketPath,
          String(proxy.proxyPort),
          '--',
          file,
          ...args
        ]
      : [file, ...args]
  return { file: bwrap, args: [...bwrapArgs(policy, cwd), '--', ...inner] }
}

/** How the bridge runs: this Node, or this Electron running as Node (just for the bridge). */
function bridgeRunner(): string[] {
  if (!process.versions.electron) return [process.execPath]
  return ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', 'MECATL_BRIDGE_AS_NODE=1', process.execPath]
}

/**
 * The machine's daemons listen on unix sockets under /run (Docker, containerd, the D-Bus system
 * bus, ssh and gpg agents in /run/user): a socket can be connected to on a read-only mount, and
 * one of them is a way out of every rule above. /run is replaced by an empty folder; with the
 * network on, the system resolver's folder comes back so names still resolve.
 */
function hiddenDaemonSockets(networkOn: boolean): string[] {
  const args: string[] = []
  for (const dir of ['/run', '/var/run']) {
    if (isRealDirectory(dir)) args.push('--tmpfs', dir)
  }
  if (networkOn && isRealDirectory('/run/systemd/resolve')) {
    args.push('--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve')
  }
  return args
}

function isRealDirectory(at: string): boolean {
  try {
    return lstatSync(at).isDirectory()
  } catch {
    return false
  }
}
