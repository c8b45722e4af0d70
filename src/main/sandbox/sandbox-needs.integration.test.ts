// What a confined command still has under the closed sandbox: its toolchains and caches, git's
// settings without credentials, git working in a repository, a worktree and a subfolder (with
// .git read-only unless a person approved the write), the sockets and variables a person passed
// in, and paths added for one project.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { callOnce } from '../agent/single-call'
import type { Core } from '../core'
import {
  closeSandboxPlaces,
  openSandboxCore,
  sandboxPlace,
  type SandboxPlace
} from '../../../testing/sandbox-place'
import { PathJail } from '../workspace/path-jail'
import { ReadVersions } from '../workspace/read-versions'

type Place = SandboxPlace

const servers: net.Server[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) server.close()
  await closeSandboxPlaces()
})

const place = (): Promise<Place> => sandboxPlace('needs')
const open = openSandboxCore

async function shell(core: Core, workspace: string, command: string): Promise<string> {
  // Through a script of the folder, so the gate leaves git's writes to the sandbox alone.
  await writeFile(path.join(workspace, 'run.sh'), `#!/bin/sh\n${command}\n`, { mode: 0o755 })
  const result = await callOnce(
    core.turns,
    workspace,
    'Shell',
    JSON.stringify({ command: './run.sh' })
  )
  return result.output.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
  return result.stdout
}

async function plant(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, text)
}

async function repository(at: Place): Promise<void> {
  git(at.workspace, 'init', '-q')
  await writeFile(path.join(at.workspace, 'a.txt'), 'a\n')
  git(at.workspace, 'add', 'a.txt')
  git(at.workspace, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'first')
}

describe('what a confined command still has', () => {
  it('reads the toolchains and caches of the home directory, nothing else of it', async () => {
    const at = await place()
    await plant(path.join(at.home, '.cargo/bin/cargo-tool'), 'CARGO-TOOL\n')
    await plant(path.join(at.home, '.cargo/credentials.toml'), 'CARGO-SECRET\n')
    await plant(path.join(at.home, '.cache/pip/wheel'), 'PIP-CACHE\n')
    await plant(path.join(at.home, '.cache/other/thing'), 'OTHER-CACHE\n')
    const core = await open(at)
    const text = await shell(
      core,
      at.workspace,
      `cat ~/.cargo/bin/cargo-tool ~/.cache/pip/wheel ~/.cargo/credentials.toml ~/.cache/other/thing 2>&1; touch ~/.cargo/bin/x 2>&1 || echo RO`
    )
    expect(text).toContain('CARGO-TOOL')
    expect(text).toContain('PIP-CACHE')
    expect(text).not.toContain('CARGO-SECRET')
    expect(text).not.toContain('OTHER-CACHE')
    expect(text).toContain('RO')
    // home_defaults: false closes them too.
    const closed = await open(at, { sandbox: { home_defaults: false } })
    expect(await shell(closed, at.workspace, 'cat ~/.cargo/bin/cargo-tool 2>&1')).not.toContain(
      'CARGO-TOOL'
    )
  })

  it('sees git’s settings without credential helpers, and git works in the repository', async () => {
    const at = await place()
    await plant(
      path.join(at.home, '.gitconfig'),
      '[user]\n\tname = Pat Example\n\temail = pat@example.com\n[credential]\n\thelper = store\n[http]\n\textraHeader = Authorization: Basic SECRET-HEADER\n'
    )
    await repository(at)
    await writeFile(path.join(at.workspace, 'a.txt'), 'changed\n')
    const core = await open(at)
    const text = await shell(
      core,
      at.workspace,
      'git config --global --list; cat ~/.gitconfig; git status --short; git log --oneline | wc -l; git diff --stat'
    )
    expect(text).toContain('user.name=Pat Example')
    expect(text).not.toContain('credential')
    expect(text).not.toContain('SECRET-HEADER')
    expect(text).toContain('M a.txt')
    expect(text).toContain('a.txt | 2')
  })

  it('keeps .git read-only, and writable for one command a person approved', async () => {
    const at = await place()
    await repository(at)
    const core = await open(at)
    const before = await readFile(path.join(at.workspace, '.git/config'), 'utf8')
    const refused = await shell(core, at.workspace, 'git config core.fsmonitor x 2>&1; echo done')
    expect(refused).toMatch(/Read-only file system|could not lock/)
    expect(await readFile(path.join(at.workspace, '.git/config'), 'utf8')).toBe(before)
    // What the dispatcher hands Shell once a person approved the git write: .git writable, once.
    const tool = core.catalog.get('Shell')
    if (!tool) throw new Error('no Shell')
    const approved = await tool.call(
      tool.inputSchema.parse({
        command:
          'git -c user.email=a@b -c user.name=a commit -qm next --allow-empty && echo COMMITTED'
      }),
      {
        sessionId: 'approved',
        jail: new PathJail(at.workspace),
        reads: new ReadVersions(),
        signal: new AbortController().signal,
        gitWriteApproved: true
      }
    )
    const said = approved.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    expect(said).toContain('COMMITTED')
    expect(git(at.workspace, 'log', '--oneline').trim().split('\n')).toHaveLength(2)
  })

  it('works in a subfolder of a repository and in a worktree, .git read-only in both', async () => {
    const at = await place()
    await repository(at)
    await plant(path.join(at.workspace, 'sub/b.txt'), 'b\n')
    git(at.workspace, 'add', 'sub/b.txt')
    git(at.workspace, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'sub')
    const core = await open(at)
    const sub = await shell(
      core,
      path.join(at.workspace, 'sub'),
      'git status --short; echo STATUS=$?'
    )
    expect(sub).toContain('STATUS=0')
    // Files above the folder are there (read-only), so git does not take them for deleted.
    expect(sub).not.toMatch(/^ ?D /m)
    const tree = path.join(at.dir, 'tree')
    git(at.workspace, 'worktree', 'add', '-q', tree)
    const inTree = await shell(
      core,
      tree,
      'git status --short; echo STATUS=$?; git log --oneline | wc -l; git config x.y z 2>&1'
    )
    expect(inTree).toContain('STATUS=0')
    expect(inTree).toMatch(/^\s*2\s*$/m)
    expect(inTree).toMatch(/Read-only file system|could not lock/)
  })

  it('passes a listed socket and the variable that names it, and no other socket', async () => {
    const at = await place()
    const agentSocket = path.join(at.dir, 'agent.sock')
    const otherSocket = path.join(at.workspace, 'other.sock')
    for (const [where, says] of [
      [agentSocket, 'AGENT-ANSWERED'],
      [otherSocket, 'OTHER-ANSWERED']
    ] as const) {
      const server = net.createServer((c) => c.end(`${says}\n`))
      await new Promise<void>((resolve) => server.listen(where, resolve))
      servers.push(server)
    }
    const core = await open(
      at,
      { sandbox: { sockets: ['$SSH_AUTH_SOCK'] } },
      { SSH_AUTH_SOCK: agentSocket }
    )
    const probe = (where: string): string =>
      `${process.execPath} -e "require('net').connect('${where}').on('data',d=>console.log(String(d).trim())).on('error',e=>console.log('NO '+e.code))"`
    const text = await shell(
      core,
      at.workspace,
      `echo "sock=$SSH_AUTH_SOCK"; ${probe('$SSH_AUTH_SOCK')}`
    )
    expect(text).toContain(`sock=${agentSocket}`)
    expect(text).toContain('AGENT-ANSWERED')
    // Without the listing, no Unix socket can be made at all, not even the listed one.
    const closed = await open(at, {}, { SSH_AUTH_SOCK: agentSocket })
    const none = await shell(closed, at.workspace, probe(agentSocket))
    expect(none).not.toContain('AGENT-ANSWERED')
    expect(existsSync(agentSocket)).toBe(true)
  })

  it('passes a variable a person listed, never a key Mecatl uses', async () => {
    const at = await place()
    const core = await open(
      at,
      {
        shell: { env_passthrough: ['GOPATH'] },
        providers: [{ id: 'main', kind: 'openai', api_key_env: 'MY_PROVIDER_KEY' }]
      },
      { GOPATH: '/go', MY_PROVIDER_KEY: 'sk-provider', UNLISTED: 'nope' }
    )
    const text = await shell(core, at.workspace, 'env')
    expect(text).toContain('GOPATH=/go')
    expect(text).not.toContain('sk-provider')
    expect(text).not.toContain('UNLISTED')
  })

  it('adds a path for one project only', async () => {
    const at = await place()
    await plant(path.join(at.home, '.m2/settings.xml'), 'MAVEN-SETTINGS\n')
    const other = path.join(at.dir, 'other')
    await mkdir(other)
    const core = await open(at, {
      sandbox: { projects: { [at.workspace]: { readable: ['~/.m2/settings.xml'] } } }
    })
    expect(await shell(core, at.workspace, 'cat ~/.m2/settings.xml 2>&1')).toContain(
      'MAVEN-SETTINGS'
    )
    expect(await shell(core, other, 'cat ~/.m2/settings.xml 2>&1')).not.toContain('MAVEN-SETTINGS')
  })
})
