// The macOS profile generator. sandbox-exec cannot run here, so these tests read the generated
// profile back with a small model of SBPL (s-expressions; rules in order, the last match wins;
// `file-read*`-style wildcards; literal, subpath, regex, param) and ask it what a confined
// command may do, as an attacker would: the same policy as bubblewrap's (policy.ts), attacked
// the same ways. The model throws on any operation or filter it does not know, so a typo in
// the profile fails here instead of on a Mac.
import { describe, expect, it } from 'vitest'
import { SeatbeltPolicyError, seatbeltProfile, seatbeltWrap } from './seatbelt'
import {
  type Request,
  readEnv,
  load,
  HOME,
  WS,
  TMP,
  DATA,
  COPY,
  policy,
  can,
  each,
  closed
} from '../../../testing/seatbelt-model'
import type { ConfinementPolicy } from './policy'

describe('the seatbelt profile', () => {
  it('starts closed, names no path, and passes every path as a -D parameter it uses', () => {
    const sb = load(policy({ readable: [`${HOME}/.ssh/known_hosts`] }))
    expect(sb.rules.some((r) => r[0] === 'allow' && r[1] === 'default')).toBe(false)
    expect([...sb.params.keys()].sort()).toEqual([...sb.used].sort())
    expect(sb.params.get('WORKSPACE')).toBe(WS)
    expect(sb.params.get('HOME')).toBe(HOME)
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

  it('lets no quote or parenthesis in any field change a rule, and refuses a line break', () => {
    const every = (n: string): ConfinementPolicy =>
      policy({
        workspace: `${HOME}/${n}ws`,
        writable: [`${HOME}/${n}w`],
        readable: [`${HOME}/${n}r`],
        denyRead: [`${HOME}/${n}r/${n}d`],
        own: [`${HOME}/${n}ws/${n}o`],
        gitDirs: [`${HOME}/${n}ws/.git`],
        files: [{ at: `${HOME}/${n}g`, from: `${HOME}/${n}ws/${n}o/${n}c` }],
        sockets: [`/private/tmp/${n}s`],
        unixSockets: true,
        system: { dirs: [], links: [], hidden: [`/opt/${n}h`] }
      })
    const plain = seatbeltProfile(every('p')).text
    for (const n of [
      'a")(allow default)(allow file* (subpath "',
      'x") (allow network*) ; ',
      'b\\"c\\\\',
      '#"^.*"#)'
    ]) {
      expect(seatbeltProfile(every(n)).text, n).toBe(plain)
      const sb = load(every(n))
      expect(sb.rules.some((r) => r[0] === 'allow' && r[1] === 'default')).toBe(false)
      closed(sb, [`${HOME}/${n}ws/${n}o/k`, `${HOME}/${n}r/${n}d/k`, `${HOME}/${n}g`, `/opt/${n}h`])
      closed(sb, [`${HOME}/secret`, `${HOME}/${n}ws/${n}o`])
      expect(can(sb, 'file-read-data', `${HOME}/${n}ws/${n}o/${n}c`)).toBe(true)
      expect(can(sb, 'file-write-data', `${HOME}/${n}ws/.git/config`)).toBe(false)
      expect(can(sb, 'file-write-data', `${HOME}/${n}ws/src`)).toBe(true)
      expect(sb.decide({ op: 'network-outbound', remote: { unix: `/private/tmp/${n}s` } })).toBe(
        'allow'
      )
      expect(sb.decide({ op: 'network-outbound', remote: { unix: '/private/tmp/s' } })).toBe('deny')
    }
    for (const n of ['a\n(allow default)\n', 'a\r(allow default)']) {
      expect(() => seatbeltProfile(every(n))).toThrow(/NUL or a line break/)
    }
  })

  it('passes the command through untouched after --, from /usr/bin/sandbox-exec only', () => {
    const script = `echo "it's" \\"; printf '%s\\n' ")(allow default)"\nexit 3`
    const { file, args } = seatbeltWrap(policy(), '/bin/bash', ['-c', script])
    expect(file).toBe('/usr/bin/sandbox-exec')
    const { command } = readEnv(args.slice(args.indexOf('--') + 1))
    expect(command).toEqual(['/bin/bash', '-c', script])
    expect(() => seatbeltWrap(policy(), '', [])).toThrow(SeatbeltPolicyError)
  })

  it('lets the disk outside the home be read, and denied paths neither read nor written', () => {
    const sb = load(policy({ workspace: '/Volumes/src/app' }))
    each(sb, 'file-read-data', '/usr/bin/env /System/x /Library/x /Users/Shared/x /opt/x', true)
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
    const client = `${HOME}/work/client`
    const nested = load(policy({ denyRead: [client], writable: [`${client}/out`] }))
    expect(can(nested, 'file-write-data', `${client}/out/x`)).toBe(true)
    expect(can(nested, 'file-read-data', `${client}/out/x`)).toBe(true)
    expect(can(nested, 'file-read-data', `${client}/contract.pdf`)).toBe(false)
    const same = load(policy({ writable: [`${HOME}/.aws`], readable: [`${HOME}/.ssh`] }))
    expect(can(same, 'file-write-data', `${HOME}/.aws/credentials`)).toBe(false)
    expect(can(same, 'file-read-data', `${HOME}/.aws/credentials`)).toBe(false)
    expect(can(same, 'file-read-data', `${HOME}/.ssh/config`)).toBe(true)
    expect(can(same, 'file-write-data', `${HOME}/.ssh/config`)).toBe(false)
    const inside = load(policy({ readable: [`${WS}/vendor`] }))
    expect(can(inside, 'file-write-data', `${WS}/vendor/lib.js`)).toBe(false)
    expect(can(inside, 'file-write-data', `${WS}/src.js`)).toBe(true)
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
    expect(sb.decide({ op: 'system-socket', domain: 'AF_UNIX' })).toBe('deny')
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
  const fields = [
    'workspace',
    'home',
    'writable',
    'readable',
    'denyRead',
    'own',
    'gitDirs',
    'sockets',
    'system.hidden',
    'files'
  ] as const
  const put = (field: (typeof fields)[number], p: string): ConfinementPolicy[] => {
    if (field === 'workspace' || field === 'home') return [policy({ [field]: p })]
    if (field === 'system.hidden') return [policy({ system: { dirs: [], links: [], hidden: [p] } })]
    if (field === 'files')
      return [policy({ files: [{ at: p, from: COPY }] }), policy({ files: [{ at: WS, from: p }] })]
    return [policy({ [field]: [p], unixSockets: true })]
  }

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
      for (const [p, why] of bad)
        for (const confined of put(field, p)) {
          const attempt = (): unknown => seatbeltWrap(confined, 'x', [])
          expect(attempt, `${field} ${JSON.stringify(p)}`).toThrow(SeatbeltPolicyError)
          expect(attempt).toThrow(why)
          expect(attempt).toThrow(field)
        }
  })

  it('accepts the root and paths with spaces, quotes, backslashes and non-ASCII letters', () => {
    const fine = ['/', `${HOME}/My "Projects"`, `${HOME}/a\\b`, `${HOME}/café/日本`, '/private/tmp']
    for (const p of fine) expect(() => seatbeltProfile(policy({ denyRead: [p] })), p).not.toThrow()
  })
})
