// The macOS profile generator. sandbox-exec cannot run here, so these tests read the generated
// profile back with a small model of SBPL (s-expressions; rules in order, the last match wins;
// `file-read*`-style wildcards; literal, subpath, regex, param) and ask it what a confined
// command may do. The model throws on any operation or filter it does not know, so a typo in
// the profile fails here instead of on a Mac.
import { describe, expect, it } from 'vitest'
import type { ConfinementPolicy } from './policy'
import { SANDBOX_EXEC, SeatbeltPolicyError, seatbeltProfile, seatbeltWrap } from './seatbelt'

type Sexp = string | { s: string } | { re: string } | Sexp[]

function parse(text: string): Sexp[] {
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
const KNOWN_OPS = new Set(
  `default process-exec process-fork signal process-info* mach-host* sysctl-read sysctl-write
  mach-lookup user-preference-read ipc-posix-sem iokit-open pseudo-tty file-read* file-read-data
  file-read-metadata file-write* file-write-data file-write-create file-write-unlink file-ioctl
  file-link network* network-outbound network-inbound network-bind system-socket`.split(/\s+/)
)

type Remote = { tcp: string; port: number } | { unix: string }
interface Request {
  op: string
  path?: string
  remote?: Remote
  local?: { unix: string }
  name?: string
}

interface Loaded {
  rules: Sexp[][]
  params: Map<string, string>
  used: Set<string>
  decide(request: Request): 'allow' | 'deny'
}

function load(policy: ConfinementPolicy): Loaded {
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
  expect(args.slice(end)).toEqual(['--', '/bin/zsh', '-c', 'true'])
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
      case 'remote':
      case 'local': {
        const end = kind === 'remote' ? request.remote : request.local
        if (first === 'unix-socket') {
          if (!end || !('unix' in end)) return false
          return second === undefined || end.unix === value((second as Sexp[])[1])
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
  return { rules, params, used, decide }
}

const HOME = '/Users/pat'
const WS = `${HOME}/code/app`
const TMP = '/private/var/folders/xy/abc/T/mecatl-jobs-1-q1w2e3/j1'
const DATA = `${HOME}/Library/Application Support/Mecatl`

function policy(over: Partial<ConfinementPolicy> = {}): ConfinementPolicy {
  return {
    workspace: WS,
    writable: [TMP],
    readable: [],
    denyRead: [`${HOME}/.ssh`, `${HOME}/.aws`, DATA],
    network: 'off',
    ...over
  }
}

function can(sb: Loaded, op: string, path: string): boolean {
  return sb.decide({ op, path }) === 'allow'
}

/** Whether `op` is allowed on each of `paths`, space-separated, as `want` says. */
function each(sb: Loaded, op: string, paths: string, want: boolean): void {
  for (const p of paths.split(' ')) expect(can(sb, op, p), `${op} ${p}`).toBe(want)
}

describe('the seatbelt profile', () => {
  it('starts closed, names no path, and passes every path as a -D parameter it uses', () => {
    const sb = load(policy({ readable: [`${HOME}/.ssh/known_hosts`] }))
    expect(sb.rules.some((r) => r[0] === 'allow' && r[1] === 'default')).toBe(false)
    expect([...sb.params.keys()].sort()).toEqual([...sb.used].sort())
    expect(sb.params.get('WORKSPACE')).toBe(WS)
    expect([...sb.params.values()]).toEqual(expect.arrayContaining([TMP, DATA, `${HOME}/.aws`]))
    const { text } = seatbeltProfile(policy())
    expect(text).not.toContain('/Users')
    expect(text).not.toContain('mecatl-jobs')
  })

  it('keeps a path that tries to break out of its string a path, in argv only', () => {
    const evil = `${HOME}/a")(allow default)(deny file-read* (subpath "`
    const odd = `${HOME}/b\\"c\\\\`
    const sb = load(policy({ workspace: evil, writable: [odd] }))
    expect(sb.rules.some((r) => r[0] === 'allow' && r[1] === 'default')).toBe(false)
    expect(sb.params.get('WORKSPACE')).toBe(evil)
    expect(can(sb, 'file-write-data', `${evil}/x`)).toBe(true)
    expect(can(sb, 'file-write-data', `${odd}/x`)).toBe(true)
    expect(can(sb, 'file-write-data', `${HOME}/a`)).toBe(false)
    // The text is the same as for a plain path of the same depth: no path reaches it.
    const plain = seatbeltProfile(policy({ workspace: `${HOME}/plain`, writable: [`${HOME}/x`] }))
    expect(seatbeltProfile(policy({ workspace: evil, writable: [odd] })).text).toBe(plain.text)
  })

  it('passes the command through untouched after --, from /usr/bin/sandbox-exec only', () => {
    const script = `echo "it's" \\"; printf '%s\\n' ")(allow default)"\nexit 3`
    const { file, args } = seatbeltWrap(policy(), '/bin/bash', ['-c', script])
    expect(file).toBe('/usr/bin/sandbox-exec')
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/bash', '-c', script])
    expect(() => seatbeltWrap(policy(), '', [])).toThrow(SeatbeltPolicyError)
  })

  it('lets everything be read except the denied paths, which are neither read nor written', () => {
    const sb = load(policy())
    each(sb, 'file-read-data', `/usr/bin/env /System/x ${HOME}/notes.txt ${HOME}/.sshrc`, true)
    for (const op of ['file-read-data', 'file-read-metadata', 'file-write-data', 'file-link']) {
      each(sb, op, `${HOME}/.ssh ${HOME}/.ssh/id_ed25519 ${HOME}/.aws/credentials`, false)
      expect(can(sb, op, `${DATA}/mecatl.db`)).toBe(false)
    }
    // A denied path that does not exist yet cannot be made, so nothing can be put there.
    expect(can(sb, 'file-write-create', `${HOME}/.aws`)).toBe(false)
  })

  it('writes only in the project folder, the writable paths and the terminal devices', () => {
    const sb = load(policy())
    each(sb, 'file-write-data', `${WS} ${WS}/a.ts ${TMP}/t /dev/null /dev/tty /dev/ttys003`, true)
    expect(can(sb, 'file-write-data', '/dev/fd/1')).toBe(true)
    const outside = `${WS}-other/x ${HOME}/code/x /private/tmp/x /private/etc/hosts /usr/local/bin/node`
    const devices = `/dev/disk0 /dev/tty.usbserial-1410 ${TMP}-sibling`
    for (const op of ['file-write-data', 'file-write-create']) {
      each(sb, op, outside, false)
      each(sb, op, devices, false)
    }
    // A hard link is a second name that the path rules would not follow: never allowed.
    expect(can(sb, 'file-link', `${WS}/a`)).toBe(false)
    expect(sb.rules.some((r) => r[0] === 'allow' && r.includes('file-link'))).toBe(false)
  })

  it('keeps a denied folder inside the project folder denied, and unmovable', () => {
    const sb = load(policy({ workspace: HOME }))
    expect(can(sb, 'file-write-data', `${HOME}/notes.txt`)).toBe(true)
    expect(can(sb, 'file-write-unlink', `${HOME}/notes.txt`)).toBe(true)
    expect(can(sb, 'file-read-data', `${HOME}/.ssh/id_rsa`)).toBe(false)
    expect(can(sb, 'file-write-data', `${HOME}/.ssh/authorized_keys`)).toBe(false)
    // ~/.aws does not exist yet: making it (or a link in its place) is refused too.
    expect(can(sb, 'file-write-create', `${HOME}/.aws`)).toBe(false)
    expect(can(sb, 'file-write-create', `${HOME}/.awsx`)).toBe(true)
    // mv ~/.ssh ~/x, or mv of any folder above a denied one, would carry it out of its rule.
    each(sb, 'file-write-unlink', `${HOME}/.ssh ${HOME}/Library ${HOME}`, false)
    expect(can(sb, 'file-write-unlink', `${HOME}/Library/Application Support`)).toBe(false)
    expect(can(sb, 'file-write-unlink', `${HOME}/Library/Caches`)).toBe(true)
  })

  it('lets a readable exception inside a denied folder be read, not written', () => {
    const known = `${HOME}/.ssh/known_hosts`
    const sb = load(policy({ readable: [known] }))
    expect(can(sb, 'file-read-data', known)).toBe(true)
    expect(can(sb, 'file-write-data', known)).toBe(false)
    expect(can(sb, 'file-read-data', `${HOME}/.ssh/id_rsa`)).toBe(false)
    // Only what getcwd and realpath need on the way: the folder's metadata, not its listing.
    expect(can(sb, 'file-read-metadata', `${HOME}/.ssh`)).toBe(true)
    expect(can(sb, 'file-read-data', `${HOME}/.ssh`)).toBe(false)
    expect(can(sb, 'file-write-unlink', `${HOME}/.ssh`)).toBe(false)
  })

  it('decides by depth like bubblewrap: deeper wins, and at one path deny, then readable', () => {
    const own = `${DATA}/jobs/j1/tmp`
    const nested = load(policy({ writable: [own] }))
    expect(can(nested, 'file-write-data', `${own}/x`)).toBe(true)
    expect(can(nested, 'file-read-data', `${own}/x`)).toBe(true)
    expect(can(nested, 'file-read-data', `${DATA}/mecatl.db`)).toBe(false)
    const same = load(policy({ writable: [`${HOME}/.aws`], readable: [DATA] }))
    expect(can(same, 'file-write-data', `${HOME}/.aws/credentials`)).toBe(false)
    expect(can(same, 'file-read-data', `${HOME}/.aws/credentials`)).toBe(false)
    expect(can(same, 'file-read-data', `${DATA}/mecatl.db`)).toBe(true)
    expect(can(same, 'file-write-data', `${DATA}/mecatl.db`)).toBe(false)
    const inside = load(policy({ readable: [`${WS}/vendor`] }))
    expect(can(inside, 'file-write-data', `${WS}/vendor/lib.js`)).toBe(false)
    expect(can(inside, 'file-write-data', `${WS}/src.js`)).toBe(true)
  })
})

describe('the seatbelt profile: processes and services', () => {
  it('looks up only the services a shell needs, never one that acts outside the sandbox', () => {
    const lookups = (network: ConfinementPolicy['network']): string[] =>
      load(policy({ network }))
        .rules.filter((r) => r[0] === 'allow' && r[1] === 'mach-lookup')
        .flatMap((r) => {
          expect(r.length).toBeGreaterThan(2)
          return r.slice(2).map((f) => ((f as Sexp[])[1] as { s: string }).s)
        })
    const off = lookups('off')
    expect(off).toContain('com.apple.system.opendirectoryd.libinfo')
    expect(lookups({ proxyPort: 3128 })).toEqual(off)
    const on = lookups('on')
    expect(on).toEqual(expect.arrayContaining([...off, 'com.apple.trustd.agent']))
    for (const service of [
      'com.apple.coreservices.launchservicesd',
      'com.apple.coreservices.appleevents',
      'com.apple.pasteboard.1',
      'com.apple.SecurityServer',
      'com.apple.tccd',
      'com.apple.windowserver.active',
      'com.apple.nsurlsessiond'
    ])
      expect(on).not.toContain(service)
    // trustd fetches the URLs a certificate names: a way past the proxy and past network off.
    expect(off.some((s) => s.includes('trustd') || s.includes('ocspd'))).toBe(false)
  })

  it('runs and signals its own processes only, and reads only plain sysctls', () => {
    const sb = load(policy())
    expect(sb.decide({ op: 'process-exec', path: '/bin/ls' })).toBe('allow')
    expect(sb.decide({ op: 'process-fork' })).toBe('allow')
    const signal = sb.rules.find((r) => r[1] === 'signal')
    expect(signal).toEqual(['allow', 'signal', ['target', 'same-sandbox']])
    expect(sb.decide({ op: 'sysctl-read', name: 'hw.ncpu' })).toBe('allow')
    expect(sb.decide({ op: 'sysctl-read', name: 'kern.procargs2' })).toBe('deny')
    expect(sb.decide({ op: 'sysctl-write', name: 'kern.hostname' })).toBe('deny')
  })
})

describe('the seatbelt profile: network', () => {
  const tcp = (host: string, port: number): Request => ({
    op: 'network-outbound',
    remote: { tcp: host, port }
  })
  const unix = (path: string): Request => ({ op: 'network-outbound', remote: { unix: path } })
  const DNS = '/private/var/run/mDNSResponder'

  it('off: no address, no named socket, no resolver', () => {
    const sb = load(policy())
    for (const r of [tcp('127.0.0.1', 80), tcp('93.184.216.34', 443), unix(DNS), unix(`${WS}/s`)])
      expect(sb.decide(r)).toBe('deny')
    expect(sb.decide({ op: 'network-bind', local: { unix: `${WS}/s` } })).toBe('deny')
    expect(sb.decide({ op: 'network-inbound' })).toBe('deny')
    expect(sb.decide({ op: 'system-socket' })).toBe('deny')
  })

  it('proxy: only TCP to the proxy on loopback, nothing else, not even DNS', () => {
    const sb = load(policy({ network: { proxyPort: 3128 } }))
    expect(sb.decide(tcp('127.0.0.1', 3128))).toBe('allow')
    expect(sb.decide(tcp('::1', 3128))).toBe('allow')
    const others = [tcp('127.0.0.1', 3129), tcp('10.0.0.1', 3128), unix(DNS), unix('/d.sock')]
    for (const r of others) expect(sb.decide(r)).toBe('deny')
    expect(sb.decide({ op: 'network-bind', local: { unix: `${WS}/s` } })).toBe('deny')
    expect(sb.decide({ op: 'network-inbound' })).toBe('deny')
  })

  it('on: any address and the resolver, but no daemon socket such as Docker or an agent', () => {
    const sb = load(policy({ network: 'on' }))
    for (const r of [tcp('127.0.0.1', 80), tcp('93.184.216.34', 443), unix(DNS)])
      expect(sb.decide(r)).toBe('allow')
    expect(sb.decide({ op: 'network-inbound' })).toBe('allow')
    expect(sb.decide({ op: 'network-bind' })).toBe('allow')
    for (const p of ['/private/var/run/docker.sock', `${HOME}/.docker/run/docker.sock`, `${WS}/s`])
      expect(sb.decide(unix(p)), p).toBe('deny')
  })

  it('refuses a proxy port that is not a TCP port', () => {
    for (const port of [0, -1, 65536, 1.5, Number.NaN, '3128' as unknown as number])
      expect(() => seatbeltProfile(policy({ network: { proxyPort: port } }))).toThrow(
        /proxy port .* is not a TCP port/
      )
    const junk = 'allowlist' as unknown as ConfinementPolicy['network']
    expect(() => seatbeltProfile(policy({ network: junk }))).toThrow(SeatbeltPolicyError)
  })
})

describe('the seatbelt profile: paths it refuses', () => {
  const fields = ['workspace', 'writable', 'readable', 'denyRead'] as const
  const put = (field: (typeof fields)[number], p: string): ConfinementPolicy =>
    field === 'workspace' ? policy({ workspace: p }) : policy({ [field]: [p] })

  it('refuses NUL, line breaks, relative and unresolved paths, naming the path and the fix', () => {
    const bad: Array<[string, RegExp]> = [
      ['', /is empty/],
      [`${HOME}/a\0b`, /NUL or a line break/],
      [`${HOME}/a\nb`, /NUL or a line break/],
      [`${HOME}/a\rb`, /NUL or a line break/],
      ['code/app', /not absolute/],
      [`${HOME}/a/../.ssh`, /not resolved/],
      [`${HOME}/./a`, /not resolved/],
      [`${HOME}//a`, /not resolved/],
      [`${HOME}/a/`, /not resolved/],
      ['/tmp/x', /\/private\/tmp\/x/],
      ['/var/folders/xy/T', /\/private\/var\/folders\/xy\/T/],
      ['/etc', /\/private\/etc/]
    ]
    for (const field of fields)
      for (const [p, why] of bad) {
        const attempt = (): unknown => seatbeltProfile(put(field, p))
        expect(attempt, `${field} ${JSON.stringify(p)}`).toThrow(SeatbeltPolicyError)
        expect(attempt).toThrow(why)
        expect(attempt).toThrow(field)
      }
  })

  it('accepts the root and paths with spaces, quotes, backslashes and non-ASCII letters', () => {
    const fine = ['/', `${HOME}/My "Projects"`, `${HOME}/a\\b`, `${HOME}/café/日本`, '/private/tmp']
    for (const p of fine) expect(() => seatbeltProfile(put('denyRead', p)), p).not.toThrow()
  })
})
