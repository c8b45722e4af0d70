// Attacks on the Shell sandbox, each as an attacker would try it from inside one confined command,
// with what must then hold (on what the command printed and on the host's disk). The attack
// suite runs them as whoever runs the tests and, as root, again as an ordinary user it creates.
// Not shipped: only test files import it.
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync } from 'node:fs'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { expect } from 'vitest'

/** Where the attacks run: a home, a project folder that is a git repository, Mecatl's data. */
export interface AttackPlace {
  base: string
  home: string
  workspace: string
  dataDir: string
  /** In every planted secret; never to be seen in what a command prints. */
  token: string
  /** In the names of planted things (an error message may print a name, never a secret). */
  id: string
  /** A pid outside the sandbox (the test's own). */
  hostPid: number
  /** Whether the command runs as root. */
  asRoot: boolean
}

export interface Attack {
  name: string
  /** The attack, as a shell snippet run inside the sandbox. */
  run(at: AttackPlace): string
  /** What must hold afterwards. */
  check(said: string, at: AttackPlace): Promise<void> | void
}

/** Secrets where a list of well-known ones would catch some and miss others. */
export const PLANTED_IN_HOME = [
  '.ssh/id_rsa',
  '.git-credentials',
  '.config/gh/hosts.yml',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.bash_history',
  '.config/Mecatl/provider-keys.json',
  '.local/share/some-new-tool/token',
  '.unheard-of-cli/credentials',
  '.config/vendor/session.json',
  'Documents/passwords.txt'
]

/** Variables that hold keys in Mecatl's environment; no command may print their values. */
export const KEY_VARIABLES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'EXA_API_KEY',
  'BRAVE_API_KEY',
  'WEBSEARCH_API_KEY',
  'GITHUB_TOKEN',
  'MY_SEARCH_KEY',
  'SOME_SERVICE_PASSWORD'
]

const python = (code: string): string => `/usr/bin/python3 -c ${quote(code)} 2>&1`

/** Plants every secret and socket the attacks look for; returns what to close afterwards. */
export async function plantAttackTargets(at: AttackPlace): Promise<() => Promise<void>> {
  for (const file of PLANTED_IN_HOME) {
    const where = path.join(at.home, file)
    await mkdir(path.dirname(where), { recursive: true })
    await writeFile(where, `secret ${at.token} in ~/${file}\n`, { mode: 0o600 })
  }
  // Outside the home and the project: another project's secrets, and a system-wide one.
  await mkdir(path.join(at.base, 'other-project'), { recursive: true })
  await writeFile(path.join(at.base, 'other-project', '.env'), `TOKEN=${at.token}\n`)
  // A link in the project that leads to a secret: followed inside, it leads nowhere.
  await symlink(path.join(at.home, '.ssh/id_rsa'), path.join(at.workspace, 'innocent-link'))
  git(at.workspace, ['init', '-q'])
  git(at.workspace, [
    '-c',
    'user.email=a@b',
    '-c',
    'user.name=a',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'first'
  ])
  const servers: net.Server[] = []
  const listen = async (where: string): Promise<void> => {
    const server = net.createServer((c) => c.end(`DAEMON-${at.token}\n`))
    await new Promise<void>((resolve) => server.listen(where, resolve))
    servers.push(server)
  }
  await listen(path.join('/var/tmp', `mecatl-attack-${at.id}.sock`))
  await listen(path.join(at.workspace, 'daemon.sock'))
  await listen(`\0mecatl-attack-${at.id}`)
  // Colima's Docker socket: in the home, and on no list of secrets.
  await mkdir(path.join(at.home, '.colima', 'default'), { recursive: true })
  await listen(path.join(at.home, '.colima', 'default', 'docker.sock'))
  return async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve))
  }
}

/** The attacks of issue #33, item 7, and the ways around them an attacker tries next. */
export const ATTACKS: readonly Attack[] = [
  attack({
    name: 'capabilities',
    run: () => `grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status`,
    check: (said) => {
      const lines = said.split('\n').filter((l) => l.startsWith('Cap'))
      expect(lines).toHaveLength(4)
      for (const line of lines) expect(line).toMatch(/^Cap\w+:\s+0+$/)
    }
  }),
  attack({
    name: 'umount to uncover what lies beneath',
    run: (at) =>
      [
        `umount -l ${quote(at.home)}`,
        `umount -l ${quote(path.join(at.workspace, '.git'))}`,
        `umount -l ${quote(at.dataDir)}`,
        'umount -l /etc',
        `cat ${quote(path.join(at.home, '.ssh/id_rsa'))}`,
        `ls -A ${quote(at.dataDir)}`,
        'cat /etc/shadow'
      ]
        .map((c) => `${c} 2>&1`)
        .join('; '),
    check: (said, at) => {
      expect(said).not.toContain(at.token)
      expect(said).not.toMatch(/^root:/m)
      expect(said).not.toContain('mecatl.db')
    }
  }),
  attack({
    name: 'remount and mount to write on the host',
    run: (at) =>
      [
        'mount -o remount,rw,bind /usr',
        'mount -o remount,rw /',
        'mount -t tmpfs none /usr/local',
        `touch /usr/mecatl-attack-${at.id}`,
        `touch /etc/mecatl-attack-${at.id}`
      ]
        .map((c) => `${c} 2>&1`)
        .join('; '),
    check: (_said, at) => {
      expect(existsSync(`/usr/mecatl-attack-${at.id}`)).toBe(false)
      expect(existsSync(`/etc/mecatl-attack-${at.id}`)).toBe(false)
    }
  }),
  attack({
    name: 'new namespaces (unshare) to win capabilities back',
    run: () =>
      [
        `unshare -U -r sh -c 'echo NEW-USERNS-$((20+22))'`,
        `unshare -m sh -c 'echo NEW-MOUNTNS-$((20+22))'`,
        `unshare -n sh -c 'echo NEW-NETNS-$((20+22))'`
      ]
        .map((c) => `${c} 2>&1`)
        .join('; '),
    check: (said) => expect(said).not.toMatch(/NEW-\w+-42/)
  }),
  attack({
    name: 'processes outside: signal, look, trace',
    run: (at) =>
      [
        `kill -0 ${at.hostPid} 2>/dev/null && echo SIGNALLED-HOST`,
        `test -e /proc/${at.hostPid}/environ && echo SEES-HOST`,
        python(
          `import ctypes; libc=ctypes.CDLL(None); r=libc.ptrace(16, ${at.hostPid}, 0, 0); print('TRACED-HOST' if r==0 else 'ptrace refused')`
        ),
        'cat /proc/1/cmdline | tr "\\0" " "'
      ].join('; '),
    check: (said) => {
      expect(said).not.toContain('SIGNALLED-HOST')
      expect(said).not.toContain('SEES-HOST')
      expect(said).not.toContain('TRACED-HOST')
      // The only pid 1 a command can see is the sandbox's own.
      expect(said).toMatch(/bwrap/)
    }
  }),
  attack({
    name: 'raw and packet sockets',
    run: () =>
      [
        python(
          `import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); print('RAW-OPENED')`
        ),
        python(
          `import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW); print('PACKET-OPENED')`
        )
      ].join('; '),
    check: (said) => {
      expect(said).not.toContain('RAW-OPENED')
      expect(said).not.toContain('PACKET-OPENED')
      expect(said).toMatch(/Operation not permitted|Permission denied/)
    }
  }),
  attack({
    name: 'secrets a deny list would miss',
    run: (at) =>
      [
        ...PLANTED_IN_HOME.map((f) => `cat ${quote(path.join(at.home, f))} 2>/dev/null`),
        `cat ${quote(path.join(at.base, 'other-project', '.env'))} 2>/dev/null`,
        'cat innocent-link 2>/dev/null',
        // A pattern that matches the token without holding it, so this script is no match.
        `grep -r ${quote(`${at.token.slice(0, 4)}[${at.token[4]}]${at.token.slice(5)}`)} ${quote(at.home)} ${quote(at.base)} /etc /opt /var /srv /mnt /root /home 2>/dev/null`,
        `ls -A ${quote(at.home)}`
      ].join('; '),
    check: (said, at) => expect(said).not.toContain(at.token)
  }),
  attack({
    name: 'a file only root may read, for a command run as root',
    run: (at) => `cat /etc/mecatl-root-only-${at.id} 2>&1; cat /etc/shadow 2>&1 | head -1`,
    check: (said, at) => {
      expect(said).not.toContain(at.token)
      expect(said).not.toMatch(/^root:/m)
    }
  }),
  attack({
    name: 'Unix sockets with network off: under /var/tmp, in the project, abstract, in the home',
    run: (at) =>
      [
        ...[
          path.join('/var/tmp', `mecatl-attack-${at.id}.sock`),
          path.join(at.workspace, 'daemon.sock'),
          `\0mecatl-attack-${at.id}`,
          path.join(at.home, '.colima', 'default', 'docker.sock')
        ].map((where) =>
          python(
            `import socket; s=socket.socket(socket.AF_UNIX); s.settimeout(3); s.connect(${JSON.stringify(where)}); print(s.recv(100).decode())`
          )
        ),
        // A datagram pair re-aimed at a path, the way around a closed socket().
        python(
          `import socket; a,b=socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); a.connect(${JSON.stringify(path.join(at.workspace, 'daemon.sock'))}); print('AIMED')`
        )
      ].join('; '),
    check: (said, at) => {
      expect(said).not.toContain(`DAEMON-${at.token}`)
      expect(said).not.toContain('AIMED')
      expect(said).toContain('Operation not permitted')
    }
  }),
  attack({
    name: 'keys in the environment',
    run: () => 'env; cat /proc/self/environ | tr "\\0" "\\n"; cat /proc/1/environ | tr "\\0" "\\n"',
    check: (said, at) => {
      expect(said).not.toContain(at.token)
      for (const name of KEY_VARIABLES) expect(said).not.toContain(`${name}=`)
    }
  }),
  attack({
    name: 'planting in .git: hooks, fsmonitor, a filter driver',
    run: (at) =>
      [
        `git config core.fsmonitor 'touch ${markerOf(at)}'`,
        `git config core.hooksPath hooks-elsewhere`,
        `printf '#!/bin/sh\\ntouch ${markerOf(at)}\\n' > hook.sh; chmod +x hook.sh; cp hook.sh .git/hooks/pre-commit`,
        `printf '[core]\\n\\tfsmonitor = touch ${markerOf(at)}\\n' >> .git/config`,
        `echo '* filter=evil' > .gitattributes; git config filter.evil.clean 'touch ${markerOf(at)}'`,
        `mv .git .git-moved; rm -rf .git`,
        `ln -sf hook.sh .git/hooks/post-checkout`
      ]
        .map((c) => `${c} 2>&1`)
        .join('; '),
    check: async (_said, at) => {
      expect(await readFile(path.join(at.workspace, '.git/config'), 'utf8')).not.toMatch(
        /fsmonitor|hooksPath|evil/
      )
      expect(existsSync(path.join(at.workspace, '.git/hooks/pre-commit'))).toBe(false)
      // The person's own git, outside any sandbox, afterwards: nothing planted runs.
      git(at.workspace, ['status'])
      git(at.workspace, [
        '-c',
        'user.email=a@b',
        '-c',
        'user.name=a',
        'commit',
        '-q',
        '-a',
        '--allow-empty',
        '-m',
        'person'
      ])
      expect(existsSync(markerOf(at))).toBe(false)
    }
  }),
  attack({
    name: 'typing into the terminal (TIOCSTI)',
    run: () =>
      python(`import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x'); print('TYPED')`),
    check: (said) => expect(said).not.toContain('TYPED')
  })
]

/** One attack, its functions typed by `Attack`. */
function attack(definition: Attack): Attack {
  return definition
}

/** Where a planted program would leave its mark if it ever ran. */
function markerOf(at: AttackPlace): string {
  return path.join(at.base, `ran-${at.id}`)
}

/** git on the host, as the person would run it, in a folder another user may own. */
function git(cwd: string, args: string[]): void {
  const result = spawnSync('git', ['-c', 'safe.directory=*', ...args], { cwd, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
}

/** A root-only file in /etc, the kind a command run as root must not read (as root only). */
export async function plantRootOnly(at: AttackPlace): Promise<string> {
  const file = `/etc/mecatl-root-only-${at.id}`
  await writeFile(file, `root secret ${at.token}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return file
}

/** All attacks as one command line, each section headed, and its parts back by name. */
export function attackScript(at: AttackPlace): string {
  // A newline first: the section before may end without one.
  return ATTACKS.map((a) => `printf '\\n=== %s\\n' '${a.name}'; ( ${a.run(at)} ) 2>&1`).join('\n')
}

export function attackSections(output: string): Map<string, string> {
  const sections = new Map<string, string>()
  const parts = output.split(/^=== /m).slice(1)
  for (const part of parts) {
    const end = part.indexOf('\n')
    sections.set(part.slice(0, end).trim(), part.slice(end + 1))
  }
  return sections
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
