import { lstatSync, statSync } from 'node:fs'
import path from 'node:path'
import type { ConfinementPolicy, ProxyNetwork } from './policy'

/** A command to run instead of another: the same program, inside the sandbox. */
export interface Wrapped {
  file: string
  args: string[]
}

type Mount = {
  kind: 'home' | 'rw' | 'deny' | 'ro' | 'file' | 'socket'
  path: string
  from?: string
}

/**
 * Deeper paths are mounted later and win. At one path: the closed home first, then the project
 * and writable paths, then a deny, then a readable exception (the person's word at that very
 * path), then a shown file or a socket.
 */
const ORDER: Record<Mount['kind'], number> = {
  home: 0,
  rw: 1,
  deny: 2,
  ro: 3,
  file: 4,
  socket: 4
}

/**
 * bubblewrap's arguments for a policy. The command starts in an empty root and is shown only
 * what the policy lists: the system folders read-only, a private /tmp, /dev and /proc, the home
 * directory as an empty folder of its own with the listed entries in it, the project folder and
 * writable paths read-write. Then, whatever lies beneath: the repository's git folders read-only
 * and Mecatl's own files hidden. It runs in a user namespace with every capability dropped and
 * no way to make another (so as root too it can mount, unmount and trace nothing), its own
 * process tree that dies with Mecatl, and no network unless the policy allows it.
 */
export function bwrapArgs(policy: ConfinementPolicy, cwd: string): string[] {
  const args = [
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(policy.network === 'on' ? [] : ['--unshare-net'])
  ]
  for (const link of policy.system.links) args.push('--symlink', link.target, link.at)
  for (const dir of policy.system.dirs) args.push('--ro-bind', dir, dir)
  for (const hidden of policy.system.hidden) args.push(...mountArgs({ kind: 'deny', path: hidden }))
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp')
  args.push(...resolverArgs(policy.network === 'on'))
  const proxy = typeof policy.network === 'object' ? policy.network : null
  const shown = visibleRoots(policy)
  // A denied path nothing shows is not there at all: no empty stand-in marks where it was.
  const hide = (p: string): boolean => shown.some((root) => within(p, root))
  const mounts: Mount[] = [
    ...(policy.home ? [{ kind: 'home' as const, path: policy.home }] : []),
    { kind: 'rw', path: policy.workspace },
    ...(proxy?.socketDir ? [{ kind: 'ro' as const, path: proxy.socketDir }] : []),
    ...(proxy ? [{ kind: 'ro' as const, path: path.dirname(process.execPath) }] : []),
    ...policy.writable.map((p) => ({ kind: 'rw' as const, path: p })),
    ...policy.denyRead.filter(hide).map((p) => ({ kind: 'deny' as const, path: p })),
    ...policy.readable.map((p) => ({ kind: 'ro' as const, path: p })),
    ...policy.files.map((f) => ({ kind: 'file' as const, path: f.at, from: f.from })),
    ...policy.sockets.map((p) => ({ kind: 'socket' as const, path: p }))
  ]
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || ORDER[a.kind] - ORDER[b.kind])
  for (const mount of mounts) args.push(...mountArgs(mount))
  // Last, so that nothing listed above can open them again: .git stays read-only and Mecatl's
  // own files unreadable wherever the project, a writable or a readable path puts them.
  for (const dir of policy.gitDirs) args.push(...mountArgs({ kind: 'ro', path: dir }))
  for (const own of policy.own.filter(hide)) args.push(...mountArgs({ kind: 'deny', path: own }))
  for (const [name, value] of Object.entries({ ...policy.env, ...proxyEnv(proxy) })) {
    args.push('--setenv', name, value)
  }
  if (proxy) args.push('--unsetenv', 'NO_PROXY', '--unsetenv', 'no_proxy')
  args.push('--chdir', cwd)
  return args
}

/** What the command is shown of the host's disk: everything else is an empty root. */
function visibleRoots(policy: ConfinementPolicy): string[] {
  return [
    ...policy.system.dirs,
    policy.workspace,
    ...policy.writable,
    ...policy.readable,
    ...policy.files.map((f) => f.at),
    ...policy.gitDirs
  ]
}

function within(inner: string, root: string): boolean {
  return inner === root || inner.startsWith(root === '/' ? '/' : `${root}/`)
}

function mountArgs({ kind, path: at, from }: Mount): string[] {
  if (kind === 'home') return ['--tmpfs', at]
  if (kind === 'file') return from ? ['--ro-bind', from, at] : []
  const type = kindOf(at)
  if (kind === 'rw') return type === null ? [] : ['--bind', at, at]
  if (kind === 'ro') return type === null ? [] : ['--ro-bind', at, at]
  if (kind === 'socket') return type === null ? [] : ['--bind', at, at]
  // A denied path that does not exist cannot be made inside either: nothing is created there.
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
 * The command `file args…` run under bubblewrap (found at `bwrap`) with this policy, its seccomp
 * filter read from `filter` (see seccomp.ts): bubblewrap takes it from a descriptor, so a shell
 * opens the file as descriptor 3 and then becomes bubblewrap. Through the allowlist, the bridge
 * runs first inside (its own loopback cannot reach the host's) and starts the command once it
 * listens.
 */
export function bwrapWrap(
  bwrap: string,
  policy: ConfinementPolicy,
  cwd: string,
  file: string,
  args: readonly string[],
  filter: string
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
  return {
    file: '/bin/sh',
    args: [
      '-c',
      'exec 3<"$1" || exit 126; shift; exec "$@"',
      'mecatl-sandbox',
      filter,
      bwrap,
      ...bwrapArgs(policy, cwd),
      '--seccomp',
      '3',
      '--',
      ...inner
    ]
  }
}

/** How the bridge runs: this Node, or this Electron running as Node (just for the bridge). */
function bridgeRunner(): string[] {
  if (!process.versions.electron) return [process.execPath]
  return ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', 'MECATL_BRIDGE_AS_NODE=1', process.execPath]
}

/**
 * With the network on, names resolve through the system's resolver, whose file under /etc may
 * lead into /run (systemd-resolved): that folder alone comes back, read-only. Nothing else of
 * /run is there, network or not: the machine's daemons listen there.
 */
function resolverArgs(networkOn: boolean): string[] {
  if (networkOn && isRealDirectory('/run/systemd/resolve')) {
    return ['--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve']
  }
  return []
}

function isRealDirectory(at: string): boolean {
  try {
    return lstatSync(at).isDirectory()
  } catch {
    return false
  }
}
