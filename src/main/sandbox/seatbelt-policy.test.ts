// The macOS profile against the allowlist policy (policy.ts), attacked as bubblewrap's is: the
// closed home directory, Mecatl's own files, git folders, files shown as copies, Unix sockets,
// system folders, processes and services. See testing/seatbelt-model.ts for how a profile is
// read back and asked.
import { describe, expect, it } from 'vitest'
import { SeatbeltPolicyError, seatbeltProfile, seatbeltWrap } from './seatbelt'
import {
  type Sexp,
  type Request,
  load,
  HOME,
  WS,
  TMP,
  DATA,
  COPY,
  AGENT,
  policy,
  can,
  each,
  READS,
  WRITES,
  closed
} from '../../../testing/seatbelt-model'
import type { ConfinementPolicy } from './policy'

describe('the seatbelt profile: the home directory', () => {
  it('keeps a secret in the home that no list names unreadable, unwritable and unmovable', () => {
    const sb = load(policy())
    const secrets = [
      `${HOME}/Documents/tax.pdf`,
      `${HOME}/.config/op/token`,
      `${HOME}/.zsh_history`,
      `${HOME}/Library/Keychains/login.keychain-db`,
      `${HOME}/code/other-client/.env`,
      `${HOME}/.gitconfig`
    ]
    closed(sb, secrets)
    // Listing the home or a folder in it is reading it; only the home itself can be looked at,
    // as the empty folder bubblewrap shows.
    each(sb, 'file-read-data', [HOME, `${HOME}/Documents`, `${HOME}/Library`], false)
    expect(can(sb, 'file-read-metadata', HOME)).toBe(true)
    each(sb, 'file-write-create', [`${HOME}/.zshrc`, `${HOME}/Library/LaunchAgents/x.plist`], false)
    each(sb, 'file-write-unlink', [HOME, `${HOME}/code`, `${HOME}/Documents`], false)
  })

  it('shows a toolchain in the home read-only: readable, not writable, not movable', () => {
    const sb = load(policy({ readable: [`${HOME}/.cargo/bin`, `${HOME}/.rustup`] }))
    each(sb, 'file-read-data', [`${HOME}/.cargo/bin/cargo`, `${HOME}/.rustup/settings.toml`], true)
    for (const op of WRITES)
      each(sb, op, [`${HOME}/.cargo/bin/cargo`, `${HOME}/.rustup/toolchains/x`], false)
    each(sb, 'file-write-unlink', [`${HOME}/.cargo/bin`, `${HOME}/.cargo`, HOME], false)
    // Beside it, the rest of the folder stays closed; on the way, folders are looked at only.
    closed(sb, [`${HOME}/.cargo/credentials.toml`, `${HOME}/.cargo/env`])
    expect(can(sb, 'file-read-metadata', `${HOME}/.cargo`)).toBe(true)
    expect(can(sb, 'file-read-data', `${HOME}/.cargo`)).toBe(false)
  })

  it('lets the project folder and the writable paths in the home be written', () => {
    const sb = load(policy({ writable: [TMP, `${HOME}/.cache/pip`] }))
    for (const op of [...READS, 'file-write-data', 'file-write-create', 'file-write-unlink'])
      each(sb, op, [`${WS}/src/a.ts`, `${HOME}/.cache/pip/wheels/x`], true)
    // getcwd in the project folder stats each folder above it; none can be listed.
    each(sb, 'file-read-metadata', [`${HOME}/code`, `${HOME}/.cache`], true)
    each(sb, 'file-read-data', [`${HOME}/code`, `${HOME}/.cache`], false)
    closed(sb, [`${HOME}/code/other/x`, `${HOME}/.cache/other/x`])
  })

  it('stays closed inside a project folder above it, which cannot carry it off', () => {
    const sb = load(policy({ workspace: '/Users' }))
    expect(can(sb, 'file-write-data', '/Users/other/x')).toBe(true)
    closed(sb, [`${HOME}/notes.txt`, `${HOME}/Documents/x`])
    // mv /Users/pat /Users/x would take the home out from under its rule.
    expect(can(sb, 'file-write-unlink', HOME)).toBe(false)
  })

  it('is like any other folder when the policy has none to close', () => {
    const sb = load(policy({ home: null }))
    expect(can(sb, 'file-read-data', `${HOME}/notes.txt`)).toBe(true)
    expect(can(sb, 'file-write-data', `${HOME}/notes.txt`)).toBe(false)
    closed(sb, [`${HOME}/.ssh/id_rsa`, `${DATA}/mecatl.db`])
  })
})

describe("the seatbelt profile: Mecatl's own files", () => {
  const inside = [`${DATA}/mecatl.db`, `${DATA}/keys/provider.key`, `${DATA}/sandbox/x.bpf`]

  it('keeps the data directory closed inside a readable or writable path or the project', () => {
    const around: Array<Partial<ConfinementPolicy>> = [
      { readable: [`${HOME}/Library`] },
      { writable: [TMP, `${HOME}/Library/Application Support`] },
      { workspace: HOME },
      { workspace: `${HOME}/Library` },
      { readable: [DATA] },
      { readable: [`${DATA}/keys`], writable: [TMP, `${DATA}/sandbox`] },
      { workspace: `${DATA}/keys` },
      { denyRead: [], readable: [DATA, `${DATA}/keys/provider.key`] },
      { gitDirs: [DATA] },
      { home: null, readable: ['/'] }
    ]
    for (const over of around) {
      const sb = load(policy(over))
      closed(sb, [...inside, DATA])
      // Nor can it, or a folder above it, be moved to a name no rule closes.
      const up = `${HOME}/Library/Application Support`
      each(sb, 'file-write-unlink', [DATA, up, `${HOME}/Library`], false)
    }
    const beside = load(policy({ readable: [`${HOME}/Library`] }))
    expect(can(beside, 'file-read-data', `${HOME}/Library/Caches/x`)).toBe(true)
  })

  it('keeps its files kept elsewhere closed too, in a readable folder', () => {
    const settings = `${HOME}/.config/mecatl/settings.yaml`
    const sb = load(policy({ readable: [`${HOME}/.config`], own: [DATA, settings] }))
    closed(sb, [settings])
    expect(can(sb, 'file-read-data', `${HOME}/.config/git/ignore`)).toBe(true)
  })
})

describe('the seatbelt profile: git folders', () => {
  const GIT = `${WS}/.git`

  it('lets .git in the project be read, not written, renamed or unlinked; the rest is free', () => {
    const around = [{}, { workspace: HOME }, { writable: [TMP, WS, GIT, `${GIT}/hooks`] }]
    for (const over of around) {
      const sb = load(policy({ ...over, gitDirs: [GIT] }))
      each(sb, 'file-read-data', [`${GIT}/HEAD`, `${GIT}/config`, GIT], true)
      for (const op of WRITES)
        each(sb, op, [`${GIT}/config`, `${GIT}/hooks/pre-commit`, `${GIT}/index`], false)
      // mv .git elsewhere, or mv of the project folder that holds it, would leave it writable.
      each(sb, 'file-write-unlink', [GIT, WS, `${HOME}/code`], false)
      expect(can(sb, 'file-write-create', GIT)).toBe(false)
      const free = [`${WS}/src/a.ts`, `${WS}/.gitignore`, `${WS}/.github/workflows/ci.yml`]
      for (const op of ['file-write-data', 'file-write-create', 'file-write-unlink'])
        each(sb, op, free, true)
    }
  })

  it("shows a worktree's git folders in the closed home read-only, and nothing beside them", () => {
    const main = `${HOME}/code/main`
    const dirs = [GIT, `${main}/.git/worktrees/app`, `${main}/.git`]
    const sb = load(policy({ gitDirs: dirs }))
    expect(can(sb, 'file-read-data', `${main}/.git/objects/ab/cdef`)).toBe(true)
    each(sb, 'file-write-data', [`${main}/.git/config`, `${main}/.git/worktrees/app/HEAD`], false)
    expect(can(sb, 'file-write-data', GIT)).toBe(false)
    expect(can(sb, 'file-read-metadata', main)).toBe(true)
    closed(sb, [`${main}/src/secret.ts`])
  })

  it('leaves .git writable when a person approved a git write (no gitDirs)', () => {
    const sb = load(policy())
    expect(can(sb, 'file-write-data', `${GIT}/index`)).toBe(true)
  })
})

describe('the seatbelt profile: files shown as copies', () => {
  const GITCONFIG = `${HOME}/.gitconfig`
  const shown = { files: [{ at: GITCONFIG, from: COPY }] }

  it('keeps ~/.gitconfig itself closed while its copy is read, and points git at the copy', () => {
    for (const over of [{}, { readable: [HOME] }, { workspace: HOME }]) {
      const sb = load(policy({ ...over, ...shown }))
      closed(sb, [GITCONFIG])
      each(sb, 'file-write-unlink', [HOME], false)
      each(sb, 'file-read-data', [COPY], true)
      for (const op of WRITES) each(sb, op, [COPY], false)
      // The copy alone: the rest of the data directory, its folder's listing included, stays shut.
      closed(sb, [`${DATA}/sandbox/seccomp-arm64.bpf`, `${DATA}/sandbox`, `${DATA}/mecatl.db`])
      expect(sb.env.get('GIT_CONFIG_GLOBAL')).toBe(COPY)
    }
  })

  it('gives git no settings file when the home is closed and none is shown', () => {
    expect(load(policy()).env.get('GIT_CONFIG_GLOBAL')).toBe('/dev/null')
    const open = load(policy({ home: null }))
    expect(open.env.size).toBe(0)
    expect(open.unset).toEqual([])
  })

  it("names ~/.gitconfig's copy over ~/.config/git/config's, as git's order makes it win", () => {
    const xdg = { at: `${HOME}/.config/git/config`, from: `${DATA}/sandbox/git-x.config` }
    expect(load(policy({ files: [xdg] })).env.get('GIT_CONFIG_GLOBAL')).toBe(xdg.from)
    const both = load(policy({ files: [xdg, ...shown.files] }))
    expect(both.env.get('GIT_CONFIG_GLOBAL')).toBe(COPY)
    closed(both, [xdg.at, GITCONFIG])
  })

  it("refuses a copy that is one of Mecatl's own paths, or holds one", () => {
    for (const from of [DATA, `${HOME}/Library`, '/'])
      expect(() => seatbeltProfile(policy({ files: [{ at: GITCONFIG, from }] }))).toThrow(
        /Mecatl's own/
      )
  })
})

describe('the seatbelt profile: Unix sockets', () => {
  const unix = (path: string): Request => ({ op: 'network-outbound', remote: { unix: path } })
  const DOCKER = ['/private/var/run/docker.sock', `${HOME}/.docker/run/docker.sock`]
  const others = [...DOCKER, `${AGENT}x`, `${AGENT}/x`, '/private/tmp/com.apple.launchd.Ab12']
  const passed = { sockets: [AGENT], unixSockets: true }

  it('connects to a listed socket only, with network off, on or through the proxy', () => {
    for (const network of ['off', 'on', { proxyPort: 3128 }] as const) {
      const sb = load(policy({ ...passed, network }))
      expect(sb.decide(unix(AGENT)), String(network)).toBe('allow')
      expect(sb.decide({ op: 'system-socket', domain: 'AF_UNIX' })).toBe('allow')
      for (const p of others) expect(sb.decide(unix(p)), `${String(network)} ${p}`).toBe('deny')
      // Connecting is all: nothing may listen in its place.
      expect(sb.decide({ op: 'network-bind', local: { unix: AGENT } })).toBe('deny')
      expect(can(sb, 'file-read-metadata', AGENT)).toBe(true)
      expect(can(sb, 'file-write-unlink', AGENT)).toBe(false)
    }
    const off = load(policy(passed))
    expect(off.decide({ op: 'network-outbound', remote: { tcp: '127.0.0.1', port: 22 } })).toBe(
      'deny'
    )
  })

  it('makes no Unix socket at all when the policy allows none, listed or not', () => {
    for (const network of ['off', { proxyPort: 3128 }] as const) {
      const sb = load(policy({ sockets: [AGENT], unixSockets: false, network }))
      for (const p of [AGENT, ...others]) expect(sb.decide(unix(p)), p).toBe('deny')
      expect(sb.decide({ op: 'system-socket', domain: 'AF_UNIX' })).toBe('deny')
      expect([...sb.params.values()]).not.toContain(AGENT)
    }
    // With the network on, the system resolver's socket stays: names resolve through it.
    const on = load(policy({ sockets: [AGENT], unixSockets: false, network: 'on' }))
    for (const p of [AGENT, ...others]) expect(on.decide(unix(p)), p).toBe('deny')
    expect(on.decide(unix('/private/var/run/mDNSResponder'))).toBe('allow')
  })
})

describe('the seatbelt profile: system folders and environment', () => {
  it("keeps the system's hidden entries closed, and their neighbours readable", () => {
    const hidden = ['/opt/vendor/private', '/private/etc/master.passwd']
    const sb = load(policy({ system: { dirs: ['/usr'], links: [], hidden } }))
    closed(sb, [...hidden, '/opt/vendor/private/key.pem'])
    each(sb, 'file-read-data', ['/opt/vendor/public/x', '/private/etc/hosts'], true)
  })

  it("sets the policy's variables and the proxy's over the command's own, through env", () => {
    const sb = load(
      policy({ env: { PATH: '/usr/bin:/bin', SSH_AUTH_SOCK: AGENT }, network: { proxyPort: 3128 } })
    )
    expect(Object.fromEntries(sb.env)).toEqual({
      GIT_CONFIG_GLOBAL: '/dev/null',
      PATH: '/usr/bin:/bin',
      SSH_AUTH_SOCK: AGENT,
      HTTP_PROXY: 'http://127.0.0.1:3128',
      HTTPS_PROXY: 'http://127.0.0.1:3128',
      http_proxy: 'http://127.0.0.1:3128',
      https_proxy: 'http://127.0.0.1:3128'
    })
    expect(sb.unset).toEqual(['NO_PROXY', 'no_proxy'])
    // A value is one argument whatever it holds; a name env would misread is refused.
    const odd = 'a b=c\n"d"'
    expect(load(policy({ env: { X: odd } })).env.get('X')).toBe(odd)
    for (const name of ['A=B', '-i', '', 'A B'])
      expect(() => seatbeltWrap(policy({ env: { [name]: 'x' } }), '/bin/sh', [])).toThrow(
        SeatbeltPolicyError
      )
    expect(() => seatbeltWrap(policy(), '/opt/a=b', [])).toThrow(/"=" in its name/)
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
