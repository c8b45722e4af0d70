// A small model of SBPL for the seatbelt profile's tests (sandbox-exec cannot run on Linux): it
// reads a generated profile back (s-expressions; rules in order, the last match wins;
// `file-read*`-style wildcards; literal, subpath, regex, param) and answers what a confined
// command may do. It throws on any operation or filter it does not know, so a typo in the
// profile fails a test instead of on a Mac. Not shipped: only test files import it.
import { expect } from 'vitest'
import type { ConfinementPolicy } from '../src/main/sandbox/policy'
import { SANDBOX_EXEC, seatbeltWrap } from '../src/main/sandbox/seatbelt'

export type Sexp = string | { s: string } | { re: string } | Sexp[]

export function parse(text: string): Sexp[] {
  const tokens = text.match(/;[^\n]*|#"(?:\\.|[^"\\])*"|"(?:\\.|[^"\\])*"|[()]|[^\s()";]+|\S/g)
  const stack: Sexp[][] = [[]]
  for (const token of tokens ?? []) {
    const top = stack.at(-1) as Sexp[]
    if (token.startsWith(';')) continue
    else if (token === '(') stack.push([])
    else if (token === ')') {
      const done = stack.pop() as Sexp[]
      if (stack.length === 0) throw new Error('unbalanced )')
      ;(stack.at(-1) as Sexp[]).push(done)
    } else if (token.startsWith('#"')) top.push({ re: token.slice(2, -1).replace(/\\"/g, '"') })
    else if (token.startsWith('"')) top.push({ s: token.slice(1, -1).replace(/\\(.)/g, '$1') })
    else if (token === '"') throw new Error('unterminated string')
    else top.push(token)
  }
  if (stack.length !== 1) throw new Error('unbalanced (')
  return stack[0] as Sexp[]
}

// The operations of the profiles Codex, Chromium and Apple ship; nothing else.
export const KNOWN_OPS = new Set(
  `default process-exec process-fork signal process-info* mach-host* sysctl-read sysctl-write
  mach-lookup user-preference-read ipc-posix-sem iokit-open pseudo-tty file-read* file-read-data
  file-read-metadata file-write* file-write-data file-write-create file-write-unlink file-ioctl
  file-link network* network-outbound network-inbound network-bind system-socket`.split(/\s+/)
)

export type Remote = { tcp: string; port: number } | { unix: string }
export interface Request {
  op: string
  path?: string
  remote?: Remote
  local?: { unix: string }
  name?: string
  /** The family of a socket being made (system-socket). */
  domain?: string
}

export interface Loaded {
  rules: Sexp[][]
  params: Map<string, string>
  used: Set<string>
  /** What /usr/bin/env sets and unsets before the command (empty: it is not used). */
  env: Map<string, string>
  unset: string[]
  decide(request: Request): 'allow' | 'deny'
}

/** `args` after sandbox-exec's `--`: env's options and variables, then the command, as env reads them. */
export function readEnv(after: string[]): {
  env: Map<string, string>
  unset: string[]
  command: string[]
} {
  const env = new Map<string, string>()
  const unset: string[] = []
  if (after[0] !== '/usr/bin/env') return { env, unset, command: after }
  let i = 1
  for (; after[i] === '-u'; i += 2) unset.push(after[i + 1] ?? '')
  expect(after[i], 'env ends its options with --').toBe('--')
  for (i++; after[i]?.includes('='); i++) {
    const [name = '', ...value] = (after[i] ?? '').split('=')
    env.set(name, value.join('='))
  }
  return { env, unset, command: after.slice(i) }
}

export function load(policy: ConfinementPolicy): Loaded {
  const { file, args } = seatbeltWrap(policy, '/bin/zsh', ['-c', 'true'])
  expect(file).toBe(SANDBOX_EXEC)
  expect(args[0]).toBe('-p')
  const params = new Map<string, string>()
  const end = args.indexOf('--')
  for (const arg of args.slice(2, end)) {
    const [, name = '', value = ''] = /^-D([A-Z0-9_]+)=([\s\S]*)$/.exec(arg) ?? []
    expect(name, arg).not.toBe('')
    expect(params.has(name)).toBe(false)
    params.set(name, value)
  }
  const { env, unset, command } = readEnv(args.slice(end + 1))
  expect(command).toEqual(['/bin/zsh', '-c', 'true'])
  const forms = parse(args[1] ?? '')
  expect(forms.slice(0, 2)).toEqual([
    ['version', '1'],
    ['deny', 'default']
  ])
  const rules = forms.slice(1) as Sexp[][]
  const used = new Set<string>()
  const value = (v: Sexp | undefined): string => {
    if (v && typeof v === 'object' && 's' in v) return v.s
    const name = Array.isArray(v) && v[0] === 'param' ? value(v[1]) : undefined
    const found = name === undefined ? undefined : params.get(name)
    if (name === undefined || found === undefined) throw new Error(`no value: ${JSON.stringify(v)}`)
    used.add(name)
    return found
  }
  const loopback = (host: string): boolean => ['127.0.0.1', '::1', 'localhost'].includes(host)
  const matches = (filter: Sexp, request: Request): boolean => {
    if (!Array.isArray(filter)) throw new Error(`not a filter: ${JSON.stringify(filter)}`)
    const [kind, first, second] = filter
    const p = request.path
    switch (kind) {
      case 'literal':
        return p === value(first)
      case 'subpath': {
        // As Codex found on macOS: creating the folder itself is not inside its own subpath.
        const root = value(first)
        if (p === root) return request.op !== 'file-write-create'
        return p !== undefined && p.startsWith(root === '/' ? '/' : `${root}/`)
      }
      case 'regex':
        return p !== undefined && new RegExp((first as { re: string }).re).test(p)
      case 'global-name':
      case 'sysctl-name':
      case 'iokit-registry-entry-class':
        return request.name === value(first)
      case 'sysctl-name-prefix':
        return request.name?.startsWith(value(first)) ?? false
      case 'target':
        return first === 'same-sandbox'
      case 'socket-domain':
        return request.domain === first
      case 'remote':
      case 'local': {
        const end = kind === 'remote' ? request.remote : request.local
        if (first === 'unix-socket') {
          if (!end || !('unix' in end)) return false
          if (second === undefined) return true
          const [how, at] = second as Sexp[]
          if (how !== 'path-literal') throw new Error(`unix-socket filter ${String(how)}`)
          return end.unix === value(at)
        }
        if (first !== 'tcp' || kind !== 'remote') throw new Error(`filter ${kind} ${String(first)}`)
        const [host, port] = value(second).split(':')
        return (
          !!end &&
          'tcp' in end &&
          host === 'localhost' &&
          loopback(end.tcp) &&
          Number(port) === end.port
        )
      }
      default:
        throw new Error(`unknown filter ${JSON.stringify(kind)}`)
    }
  }
  const split = (rule: Sexp[]): { ops: string[]; filters: Sexp[] } => ({
    ops: rule.slice(1).filter((x): x is string => typeof x === 'string'),
    filters: rule.slice(1).filter((x) => typeof x !== 'string')
  })
  for (const rule of rules) {
    expect(['allow', 'deny']).toContain(rule[0])
    for (const op of split(rule).ops) expect(KNOWN_OPS, `operation ${op}`).toContain(op)
    // Every filter is evaluated once, so every (param) is resolved and counted as used.
    for (const f of split(rule).filters) matches(f, { op: 'x', path: '/' })
  }
  const decide = (request: Request): 'allow' | 'deny' => {
    let verdict: 'allow' | 'deny' = 'deny'
    for (const rule of rules) {
      const { ops, filters } = split(rule)
      const hit = ops.some((op) =>
        op.endsWith('*')
          ? request.op.startsWith(op.slice(0, -1))
          : op === request.op || op === 'default'
      )
      if (hit && (filters.length === 0 || filters.some((f) => matches(f, request))))
        verdict = rule[0] as 'allow' | 'deny'
    }
    return verdict
  }
  return { rules, params, used, env, unset, decide }
}

export const HOME = '/Users/pat'
export const WS = `${HOME}/code/app`
export const TMP = '/private/var/folders/xy/abc/T/mecatl-jobs-1-q1w2e3/j1'
export const DATA = `${HOME}/Library/Application Support/Mecatl`
export const COPY = `${DATA}/sandbox/git-0123-4567.config`
export const AGENT = '/private/tmp/com.apple.launchd.Ab12/Listeners'

export function policy(over: Partial<ConfinementPolicy> = {}): ConfinementPolicy {
  return {
    workspace: WS,
    system: { dirs: [], links: [], hidden: [] },
    home: HOME,
    writable: [TMP],
    readable: [],
    files: [],
    denyRead: [`${HOME}/.ssh`, `${HOME}/.aws`],
    own: [DATA],
    gitDirs: [],
    sockets: [],
    unixSockets: false,
    network: 'off',
    ...over
  }
}

export function can(sb: Loaded, op: string, path: string): boolean {
  return sb.decide({ op, path }) === 'allow'
}

/** Whether `op` is allowed on each of `paths` (a list, or space-separated), as `want` says. */
export function each(sb: Loaded, op: string, paths: string | string[], want: boolean): void {
  for (const p of Array.isArray(paths) ? paths : paths.split(' '))
    expect(can(sb, op, p), `${op} ${p}`).toBe(want)
}

export const READS = ['file-read-data', 'file-read-metadata']
export const WRITES = ['file-write-data', 'file-write-create', 'file-write-unlink', 'file-link']

/** Nothing at all may be done with `paths`: not read, looked at, written, made, moved or linked. */
export function closed(sb: Loaded, paths: string[]): void {
  for (const op of [...READS, ...WRITES]) each(sb, op, paths, false)
}
