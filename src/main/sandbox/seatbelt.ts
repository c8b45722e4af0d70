import path from 'node:path'
import type { Wrapped } from './bwrap'
import type { ConfinementPolicy } from './policy'
import { envPrefix, seatbeltEnv } from './seatbelt-env'
import { BASE_SERVICES, DEVICES, NETWORK_SERVICES, PROCESSES, mach } from './seatbelt-rules'

/**
 * The one sandbox-exec Mecatl runs: never one found on PATH, where a project could put its own.
 * Replacing /usr/bin needs root (and SIP off), at which point there is nothing left to guard.
 */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec'

/** A generated profile and the values of its parameters (`-D NAME=value`). */
export interface SeatbeltProfile {
  /** SBPL: fixed rules that name every caller-given path as `(param "NAME")`, never inline. */
  text: string
  params: Array<[name: string, value: string]>
}

/** A policy that cannot be turned into a profile; the command must not run. */
export class SeatbeltPolicyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SeatbeltPolicyError'
  }
}

/**
 * The command `file args…` confined by sandbox-exec under `policy`:
 * `/usr/bin/sandbox-exec -p <profile> -DNAME=<path>… -- [/usr/bin/env … -- NAME=value…] file
 * args…` (the variables are seatbelt-env.ts's). sandbox-exec applies the profile and then execs
 * the command in its place (through env, which does the same), so the pid and process group are
 * the command's own and stopping the group stops everything it started; every child inherits
 * the profile and cannot shed it.
 */
export function seatbeltWrap(
  policy: ConfinementPolicy,
  file: string,
  args: readonly string[]
): Wrapped {
  if (!file) throw new SeatbeltPolicyError('no command was given to run in the sandbox')
  const { text, params } = seatbeltProfile(policy)
  const env = envPrefix(seatbeltEnv(policy), file, (why) => {
    throw new SeatbeltPolicyError(`cannot confine the command: ${why}`)
  })
  return {
    file: SANDBOX_EXEC,
    args: [
      '-p',
      text,
      ...params.map(([name, value]) => `-D${name}=${value}`),
      '--',
      ...env,
      file,
      ...args
    ]
  }
}

/**
 * The profile for `policy`, with the meaning bubblewrap gives it (bwrap.ts). Every path must
 * arrive absolute and resolved through its links, as the kernel sees it: Seatbelt matches the
 * real path of what is opened, so a deny written through a link (`/tmp/…` for `/private/tmp/…`,
 * or a `~/.ssh` that is a link) would match nothing. The caller resolves with
 * `fs.realpathSync.native` (which also gives the on-disk letter case). What can be checked
 * without the disk is checked here, and refused.
 *
 * Paths never enter the SBPL text: they are `-D` parameters, so no quote, backslash or
 * parenthesis in a folder's name can change a rule. The disk outside the home directory stays
 * readable (macOS's system folders are not bubblewrap's list); then rules decide by depth, as
 * bwrap's mounts do, a deeper path's rule winning: the home directory closed, the project and
 * writable paths read-write, the denied paths closed, the readable paths read-only, each file
 * shown as a copy closed at its own path. At one path the home comes first, then read-write,
 * then a deny, then a readable exception, then a shown file. Last, whatever came before: the
 * repository's git folders read-only and Mecatl's own files closed, but for the copies a
 * command is shown in place of the files it may not read.
 */
export function seatbeltProfile(policy: ConfinementPolicy): SeatbeltProfile {
  const params: Array<[string, string]> = []
  const param = (name: string, value: string): string => {
    params.push([name, value])
    return `(param "${name}")`
  }
  const { shallowToDeep, git, own } = policyEntries(policy)
  const closed = closedPaths(policy)
  const waysIn: string[] = []
  const rules = (entry: Entry): string[] => {
    const at = param(entry.name, entry.path)
    const both = `(literal ${at}) (subpath ${at})`
    const out =
      entry.kind === 'rw'
        ? [`(allow file-read* file-write* ${both})`]
        : entry.kind === 'ro' || entry.kind === 'git'
          ? [`(allow file-read* ${both})`, `(deny file-write* ${both})`]
          : [`(deny file-read* file-write* file-link ${both})`]
    // bubblewrap shows the home directory as an empty folder: it can be looked at, not listed.
    if (entry.kind === 'home') waysIn.push(`(allow file-read-metadata (literal ${at}))`)
    const guarded = entry.kind !== 'rw'
    const open = entry.kind === 'rw' || entry.kind === 'ro' || entry.kind === 'git'
    const exception = open && inside(entry.path, closed)
    const dirs = guarded || exception ? ancestors(entry.path) : []
    if (dirs.length === 0) return out
    const above = dirs.map((dir, i) => `(literal ${param(`${entry.name}_UP_${i}`, dir)})`).join(' ')
    // Renaming the folder a rule names, or any folder above it, would carry what it guards to a
    // path no rule names; the rules that follow are all deeper or last, so none can undo this.
    if (guarded) out.push(`(deny file-write-unlink ${above})`)
    // getcwd and realpath stat every folder on the way to a path inside a closed one.
    if (exception) waysIn.push(`(allow file-read-metadata ${above})`)
    return out
  }
  const files = shallowToDeep.flatMap(rules)
  const gitRules = git.flatMap(rules)
  const sockets = list('sockets', policy.sockets)
  const passed = policy.unixSockets ? sockets.map((p, i) => param(`SOCKET_${i}`, p)) : []
  // `test -S "$SSH_AUTH_SOCK"` looks before it connects, wherever the socket lies.
  for (const at of passed) waysIn.push(`(allow file-read-metadata (literal ${at}))`)
  const ownRules = own.flatMap(rules)
  const copies = policy.files.map(
    (f, i) => `(allow file-read* (literal ${param(`COPY_${i}`, copyOf(f.from, own))}))`
  )
  const text = [
    '(version 1)',
    '; Generated by Mecatl for one confined command. Later rules win over earlier ones.',
    '(deny default)',
    '',
    ...PROCESSES,
    mach(BASE_SERVICES),
    '',
    ...DEVICES,
    '',
    '; Files: the disk may be read, then each policy path, shallow to deep.',
    '(allow file-read*)',
    ...files,
    ...section("; The repository's git folders: read-only, in the project folder too.", gitRules),
    ...section(
      '; The way to a path inside a closed one: each folder looked at, not listed.',
      waysIn
    ),
    ...section("; Mecatl's own files: unreadable whatever came before.", ownRules),
    ...section(
      '; Copies shown in place of closed files (git settings without credentials).',
      copies
    ),
    '',
    ...network(policy.network, passed),
    ''
  ].join('\n')
  return { text, params }
}

type Kind = 'home' | 'rw' | 'deny' | 'ro' | 'file' | 'git' | 'own'
type Entry = { kind: Kind; path: string; name: string }

/**
 * The kinds decided by depth and, at one path, in this order: the closed home first, then
 * read-write, a deny, a readable exception (the person's word at that very path), a shown file.
 */
const BY_DEPTH: readonly Kind[] = ['home', 'rw', 'deny', 'ro', 'file']

/** The policy's paths as rules, checked: by depth, then the git folders, then Mecatl's own. */
function policyEntries(
  policy: ConfinementPolicy
): Record<'shallowToDeep' | 'git' | 'own', Entry[]> {
  const listed: Array<Omit<Entry, 'name'> & { prefix: string }> = []
  const add = (kind: Kind, prefix: string, paths: readonly string[]): void => {
    for (const p of paths) listed.push({ kind, prefix, path: p })
  }
  const home = policy.home === null ? [] : [checked('home', policy.home)]
  if (!policy.system || typeof policy.system !== 'object') {
    throw new SeatbeltPolicyError("the sandbox policy's system view is missing")
  }
  if (!Array.isArray(policy.files)) {
    throw new SeatbeltPolicyError("the sandbox policy's files is not a list")
  }
  add('home', 'HOME', home)
  add('rw', 'WORKSPACE', [checked('workspace', policy.workspace)])
  add('rw', 'WRITABLE', list('writable', policy.writable))
  add('deny', 'HIDDEN', list('system.hidden', policy.system.hidden))
  add('deny', 'DENIED', list('denyRead', policy.denyRead))
  add('ro', 'READABLE', list('readable', policy.readable))
  add(
    'file',
    'FILE',
    policy.files.map((f) => checked('files', f.at))
  )
  add('git', 'GIT', list('gitDirs', policy.gitDirs))
  add('own', 'OWN', list('own', policy.own))
  const seen = new Set<string>()
  const counts = new Map<string, number>()
  const entries: Entry[] = []
  for (const { kind, prefix, path: p } of listed) {
    const key = `${kind}:${p}`
    if (seen.has(key)) continue
    seen.add(key)
    const n = counts.get(prefix) ?? 0
    counts.set(prefix, n + 1)
    const single = prefix === 'HOME' || prefix === 'WORKSPACE'
    entries.push({ kind, path: p, name: single ? prefix : `${prefix}_${n}` })
  }
  const rank = (e: Entry): number => BY_DEPTH.indexOf(e.kind)
  // Stable: equal depth and kind keep the policy's order, so the text is deterministic.
  const shallowToDeep = entries
    .filter((e) => rank(e) >= 0)
    .sort((a, b) => depth(a.path) - depth(b.path) || rank(a) - rank(b))
  const ofKind = (kind: Kind): Entry[] => entries.filter((e) => e.kind === kind)
  return { shallowToDeep, git: ofKind('git'), own: ofKind('own') }
}

/** Paths whose insides a command cannot reach but for the exceptions listed there. */
function closedPaths(policy: ConfinementPolicy): string[] {
  return [
    ...(policy.home === null ? [] : [policy.home]),
    ...policy.denyRead,
    ...policy.system.hidden,
    ...policy.files.map((f) => f.at)
  ]
}

/**
 * The copy a `files` entry shows, which may lie in Mecatl's data directory (git-config.ts's copies
 * do): it alone is read there, by its exact path. A copy that is one of Mecatl's own paths, or
 * holds one, would open them: refused.
 */
function copyOf(from: string, own: readonly Entry[]): string {
  const at = checked('files', from)
  const opened = own.find((o) => o.path === at || o.path.startsWith(at === '/' ? '/' : `${at}/`))
  if (opened) {
    throw new SeatbeltPolicyError(
      `cannot confine the command: the sandbox file ${JSON.stringify(at)} (files) would show Mecatl's own ${JSON.stringify(opened.path)}; show a copy beside it instead`
    )
  }
  return at
}

function section(comment: string, rules: string[]): string[] {
  return rules.length === 0 ? [] : [comment, ...rules]
}

function list(field: string, paths: readonly string[]): string[] {
  if (!Array.isArray(paths))
    throw new SeatbeltPolicyError(`the sandbox policy's ${field} is not a list`)
  return paths.map((p) => checked(field, p))
}

/** A path as Seatbelt will compare it, or the reason it would not match what it names. */
function checked(field: string, value: string): string {
  const shown = JSON.stringify(value)
  const refuse = (why: string): never => {
    throw new SeatbeltPolicyError(
      `cannot confine the command: the sandbox path ${shown} (${field}) ${why}`
    )
  }
  if (typeof value !== 'string' || value === '') return refuse('is empty; remove the entry')
  if (/[\0\n\r]/.test(value)) {
    return refuse(
      'contains a NUL or a line break; rename it, or remove it from the sandbox settings'
    )
  }
  if (!value.startsWith('/')) return refuse('is not absolute; write it from / (or ~/)')
  if (path.posix.normalize(value) !== value || (value !== '/' && value.endsWith('/'))) {
    return refuse('is not resolved (it has //, /./, /../ or a trailing /); write it plainly')
  }
  const link = /^\/(tmp|var|etc)(\/|$)/.exec(value)
  if (link) {
    return refuse(
      `goes through /${link[1]}, a link on macOS, so no rule would match it; write /private${value}`
    )
  }
  return value
}

function depth(p: string): number {
  return p.split('/').filter(Boolean).length
}

/** The folders above `p`, nearest first, without the root (which nothing can rename). */
function ancestors(p: string): string[] {
  const out: string[] = []
  for (let dir = path.posix.dirname(p); dir !== '/' && dir !== p; dir = path.posix.dirname(dir)) {
    out.push(dir)
  }
  return out
}

function inside(p: string, closed: readonly string[]): boolean {
  return closed.some((d) => d === '/' || p === d || p.startsWith(`${d}/`))
}

/**
 * The network rules. `sockets` are the parameters of the Unix sockets passed through (none when
 * the policy allows no Unix socket): each can be connected to by its exact path, whatever the
 * network; nothing can listen on one.
 */
function network(mode: ConfinementPolicy['network'], sockets: readonly string[]): string[] {
  const reach = sockets.map(
    (at) => `(allow network-outbound (remote unix-socket (path-literal ${at})))`
  )
  const passed = (make: boolean): string[] =>
    section('; The Unix sockets passed through (an ssh-agent), each by its own path.', [
      ...(make && reach.length > 0 ? ['(allow system-socket (socket-domain AF_UNIX))'] : []),
      ...reach
    ])
  if (mode === 'off') {
    // Named sockets included: one may belong to a daemon outside (Docker, an agent, a database),
    // and the sandbox cannot tell those from its own. Unnamed pairs and pipes need no rule.
    return [
      '; Network off: no address, no named socket, no resolver.',
      '(deny network*)',
      ...passed(true)
    ]
  }
  if (mode === 'on') {
    return [
      '; Network on: any address, in and out, and the system resolver; still no daemon socket,',
      '; since Docker or an agent reached that way would undo the file rules above.',
      '(allow network*)',
      '(allow system-socket)',
      '(deny network-outbound (remote unix-socket))',
      '(deny network-bind (local unix-socket))',
      '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
      mach(NETWORK_SERVICES),
      ...passed(false)
    ]
  }
  const port = typeof mode === 'object' && mode !== null ? mode.proxyPort : undefined
  if (port === undefined) {
    throw new SeatbeltPolicyError(
      `cannot confine the command: unknown network setting ${JSON.stringify(mode)}; use off, on or a proxy port`
    )
  }
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SeatbeltPolicyError(
      `cannot confine the command: the proxy port ${JSON.stringify(port)} is not a TCP port (1 to 65535)`
    )
  }
  // No resolver and no trustd: the proxy resolves the names it allows, and either service would
  // make requests outside on the command's behalf.
  return [
    '; Network through the proxy only: TCP to it on loopback, nothing else.',
    '(deny network*)',
    `(allow network-outbound (remote tcp "localhost:${port}"))`,
    ...passed(true)
  ]
}
