// Shell confined by real bubblewrap: what a command may write, read and reach, how the tool says
// so, and that a sandbox which cannot be honoured refuses commands instead of running them bare.
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { callOnce } from '../agent/single-call'
import type { Core } from '../core'
import {
  closeSandboxPlaces,
  disposeSandboxCore,
  openSandboxCore,
  sandboxPlace,
  type SandboxPlace
} from '../../../testing/sandbox-place'

type Place = SandboxPlace

afterEach(closeSandboxPlaces)

async function place(): Promise<Place> {
  // Off /tmp, which is the sandbox's own: here only the policy decides what is seen and kept.
  const at = await sandboxPlace('sandbox')
  await mkdir(path.join(at.home, '.ssh'), { recursive: true })
  await writeFile(path.join(at.home, '.ssh', 'id_test'), 'PLANTED-SECRET-KEY\n')
  return at
}

async function open(at: Place, sandbox: Record<string, unknown> = {}, env = {}): Promise<Core> {
  return openSandboxCore(at, { sandbox }, { ...process.env, ...env })
}

async function shell(core: Core, at: Place, command: string, extra: object = {}) {
  const result = await callOnce(
    core.turns,
    at.workspace,
    'Shell',
    JSON.stringify({ command, ...extra })
  )
  const text = result.output.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  return { result, text }
}

async function listener(): Promise<{ port: number; close: () => void }> {
  const server = net.createServer((socket) => socket.end('HELLO-FROM-HOST\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() }
}

const connect = (port: number): string =>
  `${process.execPath} -e "const s=require('net').connect(${port},'127.0.0.1');s.on('data',d=>{console.log(String(d).trim());process.exit(0)});s.on('error',e=>{console.log('REFUSED '+e.code);process.exit(0)})"`

describe('Shell under bubblewrap', () => {
  it('keeps caches in the command’s own temp directory, never in a shared system one', async () => {
    const at = await place()
    const core = await open(at)
    const probe = 'echo "cache=${npm_config_cache:-default} tmp=$TMPDIR"'
    const own = await shell(core, at, probe)
    expect(own.text).toMatch(/cache=(\S+)\/\.npm tmp=\1/)
    // Others can plant files in /tmp/.npm before the command runs: a cache there is code it runs.
    const shared = await shell(core, at, probe, { temp_scope: 'system' })
    expect(shared.result.output.isError).toBe(false)
    expect(shared.text).toContain('tmp=/tmp')
    expect(shared.text).not.toMatch(/cache=\/tmp/)
  })

  it('writes the folder only, cannot read a planted secret, and reaches no network', async () => {
    const at = await place()
    const core = await open(at)
    const outside = path.join(at.home, 'outside.txt')
    await shell(core, at, 'echo inside > made.txt')
    const parts = await Promise.all([
      // The home directory is an empty folder of the command's own: a write there is lost.
      shell(core, at, `touch ${outside}`),
      shell(core, at, `touch /usr/mecatl-probe-${path.basename(at.dir)} || echo WRITE-REFUSED`),
      shell(core, at, `cat ${at.home}/.ssh/id_test || echo READ-REFUSED`),
      shell(core, at, `ls -A ${at.dataDir} | wc -l`),
      shell(core, at, connect((await listener()).port))
    ])
    const text = parts.map((p) => p.text).join('\n')
    expect(await readFile(path.join(at.workspace, 'made.txt'), 'utf8')).toBe('inside\n')
    expect(existsSync(outside)).toBe(false)
    expect(existsSync(`/usr/mecatl-probe-${path.basename(at.dir)}`)).toBe(false)
    expect(text).toContain('WRITE-REFUSED')
    expect(text).toContain('READ-REFUSED')
    expect(text).not.toContain('PLANTED-SECRET-KEY')
    expect(text).not.toContain('HELLO-FROM-HOST')
    expect(text).toContain('REFUSED')
    // Mecatl's own data directory (its database, its keys) is not there inside.
    expect(text).toMatch(/^\s*0\s*$/m)
  })

  it('cannot reach a daemon’s unix socket under /run', async () => {
    const at = await place()
    const core = await open(at)
    const socket = path.join('/run', `mecatl-test-${path.basename(at.dir)}.sock`)
    const daemon = net.createServer((c) => c.end('DAEMON-ANSWERED\n'))
    await new Promise<void>((resolve) => daemon.listen(socket, resolve))
    try {
      const { text } = await shell(
        core,
        at,
        `${process.execPath} -e "require('net').connect('${socket}').on('data',d=>{console.log(String(d).trim());process.exit(0)}).on('error',e=>{console.log('NO-DAEMON '+e.code);process.exit(0)})"`
      )
      expect(text).not.toContain('DAEMON-ANSWERED')
      expect(text).toContain('NO-DAEMON')
    } finally {
      daemon.close()
    }
  })

  it('reaches the host’s loopback with network on', async () => {
    const at = await place()
    const core = await open(at, { network: 'on' })
    const host = await listener()
    const { text } = await shell(core, at, connect(host.port))
    host.close()
    expect(text).toContain('HELLO-FROM-HOST')
  })

  it('reaches a listed host through the proxy with network: allowlist, and nothing else', async () => {
    const at = await place()
    const web = (says: string) =>
      new Promise<http.Server>((resolve) => {
        const server = http.createServer((_req, res) => res.end(says))
        server.listen(0, '127.0.0.1', () => resolve(server))
      })
    const listed = await web('LISTED-HOST')
    const other = await web('OTHER-HOST')
    const port = (server: http.Server): number => (server.address() as net.AddressInfo).port
    const core = await open(at, {
      network: 'allowlist',
      allowed_hosts: [`127.0.0.1:${port(listed)}`]
    })
    const get = (server: http.Server): string =>
      `curl -s --max-time 5 --proxy "$http_proxy" http://127.0.0.1:${port(server)}/`
    const through = await shell(core, at, get(listed))
    const refused = await shell(core, at, get(other))
    const direct = await shell(core, at, connect(port(listed)))
    listed.close()
    other.close()
    expect(through.text).toContain('LISTED-HOST')
    expect(refused.text).not.toContain('OTHER-HOST')
    expect(refused.text).toContain('not in sandbox.allowed_hosts')
    // No route out but the proxy: a direct connection to the listed host fails too.
    expect(direct.text).not.toContain('HELLO-FROM-HOST')
    expect(direct.text).toContain('REFUSED')
    expect(core.catalog.get('Shell')?.capabilities.egress).toBe('blind')
  })

  it('installs a package with npm through the allowlist, from a registry stand-in', async () => {
    const at = await place()
    const tarball = await packTiny(at.dir)
    const registry = await new Promise<http.Server>((resolve) => {
      const server = http.createServer((req, res) => {
        const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
        if (req.url === '/tiny') {
          res.setHeader('content-type', 'application/json')
          res.end(
            JSON.stringify({
              name: 'tiny',
              'dist-tags': { latest: '1.0.0' },
              versions: {
                '1.0.0': {
                  name: 'tiny',
                  version: '1.0.0',
                  dist: { tarball: `${origin}/tiny/-/tiny-1.0.0.tgz`, shasum: tarball.sha1 }
                }
              }
            })
          )
        } else if (req.url === '/tiny/-/tiny-1.0.0.tgz') res.end(tarball.bytes)
        else res.writeHead(404).end('{}')
      })
      server.listen(0, '127.0.0.1', () => resolve(server))
    })
    const port = (registry.address() as net.AddressInfo).port
    await writeFile(path.join(at.workspace, 'package.json'), '{"name":"app","version":"1.0.0"}')
    const core = await open(at, { network: 'allowlist', allowed_hosts: [`127.0.0.1:${port}`] })
    const install = await shell(
      core,
      at,
      `npm install tiny --registry http://127.0.0.1:${port}/ --no-audit --no-fund`
    )
    registry.close()
    expect(install.text).not.toMatch(/npm (ERR|error)/)
    expect(install.result.output.isError).toBe(false)
    expect(
      await readFile(path.join(at.workspace, 'node_modules', 'tiny', 'index.js'), 'utf8')
    ).toContain('TINY-WORKS')
  })

  it('installs a package with pip through the allowlist, from an index stand-in', async () => {
    const at = await place()
    const wheel = await buildWheel(at.dir)
    const index = await new Promise<http.Server>((resolve) => {
      const server = http.createServer((req, res) => {
        if (req.url === '/simple/tinypy/') {
          res.setHeader('content-type', 'text/html')
          res.end(`<a href="/files/${wheel.name}">${wheel.name}</a>`)
        } else if (req.url === `/files/${wheel.name}`) res.end(wheel.bytes)
        else res.writeHead(404).end()
      })
      server.listen(0, '127.0.0.1', () => resolve(server))
    })
    const port = (index.address() as net.AddressInfo).port
    const core = await open(at, { network: 'allowlist', allowed_hosts: [`127.0.0.1:${port}`] })
    const install = await shell(
      core,
      at,
      `PIP_CONFIG_FILE=/dev/null python3 -m pip install --no-deps --target pylib --proxy "$http_proxy" --index-url http://127.0.0.1:${port}/simple/ --trusted-host 127.0.0.1 tinypy`
    )
    index.close()
    expect(install.text).not.toMatch(/^ERROR/m)
    expect(await readFile(path.join(at.workspace, 'pylib', 'tinypy.py'), 'utf8')).toContain(
      'TINYPY-WORKS'
    )
  })

  it('builds and tests a small Node project inside the folder', async () => {
    const at = await place()
    await writeFile(
      path.join(at.workspace, 'package.json'),
      JSON.stringify({
        name: 'small',
        version: '1.0.0',
        scripts: { build: 'node build.js', test: 'node --test' }
      })
    )
    await writeFile(
      path.join(at.workspace, 'build.js'),
      "require('fs').writeFileSync('out.txt', 'built')\n"
    )
    await writeFile(
      path.join(at.workspace, 'add.test.js'),
      "const test = require('node:test')\nconst assert = require('node:assert')\ntest('adds', () => assert.equal(1 + 1, 2))\n"
    )
    const core = await open(at)
    const build = await shell(core, at, 'npm run build')
    const test = await shell(core, at, 'npm test')
    expect(build.result.output.isError).toBe(false)
    expect(await readFile(path.join(at.workspace, 'out.txt'), 'utf8')).toBe('built')
    expect(test.result.output.isError).toBe(false)
    expect(test.text).toMatch(/pass 1/)
  })

  it('serves a dev server the host can reach with network on', async () => {
    const at = await place()
    await writeFile(path.join(at.workspace, 'index.html'), 'SERVED-FROM-THE-SANDBOX\n')
    const core = await open(at, { network: 'on' })
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as net.AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
    await shell(core, at, `python3 -m http.server ${port} --bind 127.0.0.1`, { background: true })
    const page = await until(async () => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/index.html`)
        return await response.text()
      } catch {
        return null
      }
    })
    expect(page).toBe('SERVED-FROM-THE-SANDBOX\n')
  })

  it('declares egress none confined with network off, a chosen send otherwise', async () => {
    const at = await place()
    const confined = await open(at)
    await shell(confined, at, 'true')
    const caps = confined.catalog.get('Shell')?.capabilities
    expect(caps).toEqual({
      privateData: true,
      untrustedInput: false,
      egress: 'none',
      destructive: true
    })
    await confined.settings.save({ permissions: { mode: 'allow' }, sandbox: { network: 'on' } })
    expect(confined.catalog.get('Shell')?.capabilities.egress).toBe('chosen')
    await confined.settings.save({ permissions: { mode: 'allow' }, sandbox: { kind: 'none' } })
    expect(confined.catalog.get('Shell')?.capabilities.egress).toBe('chosen')
    const { text } = await shell(confined, at, `cat ${at.home}/.ssh/id_test`)
    // Unconfined because the person said so: it reads what the person can.
    expect(text).toContain('PLANTED-SECRET-KEY')
  })

  it('refuses every command, saying why, when bwrap on PATH is broken', async () => {
    const at = await place()
    const bin = path.join(at.dir, 'bin')
    await mkdir(bin)
    await writeFile(
      path.join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: broken on purpose" >&2\nexit 1\n'
    )
    await chmod(path.join(bin, 'bwrap'), 0o755)
    const core = await open(at, {}, { PATH: `${bin}:${process.env.PATH ?? ''}` })
    const marker = path.join(at.workspace, 'ran.txt')
    const { result, text } = await shell(core, at, `touch ${marker}`)
    expect(result.output.isError).toBe(true)
    expect(text).toMatch(
      /^Shell is refused: the sandbox cannot be used \(bubblewrap failed its self-test: the sandbox did not start/
    )
    expect(text).toContain('sandbox.kind: none')
    expect(existsSync(marker)).toBe(false)
  })

  it('refuses every command, and says what to allow, where no user namespace can be made', async () => {
    const at = await place()
    const bin = path.join(at.dir, 'bin')
    await mkdir(bin)
    // What bubblewrap prints on a system that forbids unprivileged user namespaces.
    await writeFile(
      path.join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
      { mode: 0o755 }
    )
    const core = await open(at, {}, { PATH: `${bin}:${process.env.PATH ?? ''}` })
    const marker = path.join(at.workspace, 'ran.txt')
    const { result, text } = await shell(core, at, `touch ${marker}`)
    expect(result.output.isError).toBe(true)
    expect(text).toContain(
      'Commands run in a user namespace of their own, which this system refuses'
    )
    expect(text).toContain('kernel.unprivileged_userns_clone')
    expect(existsSync(marker)).toBe(false)
  })

  it('refuses with the fix when bubblewrap is not installed', async () => {
    const at = await place()
    const core = await open(at, { kind: 'bwrap' }, { PATH: '/nonexistent' })
    const { result, text } = await shell(core, at, 'true')
    expect(result.output.isError).toBe(true)
    expect(text).toContain('bubblewrap is not installed (no bwrap on PATH)')
  })

  it('leaves nothing running: a background job and its children end with cancel and with the core', async () => {
    const at = await place()
    const core = await open(at)
    // Durations no other process on the machine uses: how its processes are found from outside.
    const first = 3000 + Math.floor(Math.random() * 900)
    const command = (n: number): string =>
      `sleep ${n} & (sleep ${n + 1} & wait) & setsid sleep ${n + 2} & sleep ${n + 3}`
    await shell(core, at, command(first), { background: true })
    await until(async () => ((await sleepers(first)).length >= 4 ? true : null))
    const [job] = core.jobs.list(at.workspace)
    core.jobs.stop(job!.id, 'person')
    await core.jobs.get(job!.id)!.finished
    expect(await sleepers(first)).toEqual([])

    const second = first + 10
    await shell(core, at, command(second), { background: true })
    await until(async () => ((await sleepers(second)).length >= 4 ? true : null))
    await disposeSandboxCore(core)
    expect(await sleepers(second)).toEqual([])
  })
})

/** Host pids of `sleep N…N+3` processes, read from /proc as any outside observer would. */
async function sleepers(base: number): Promise<number[]> {
  const { readdir } = await import('node:fs/promises')
  const wanted = new Set([0, 1, 2, 3].map((i) => `sleep\0${base + i}\0`))
  const found: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')
    if (wanted.has(cmdline.replace(/^.*\//, ''))) found.push(Number(entry))
  }
  return found
}

async function until<T>(check: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await check()
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('gave up waiting')
}

/** A one-file package as npm packs it, with the sha1 a registry lists for it. */
async function packTiny(dir: string): Promise<{ bytes: Buffer; sha1: string }> {
  const { execFileSync } = await import('node:child_process')
  const { createHash } = await import('node:crypto')
  const source = path.join(dir, 'tiny-source')
  await mkdir(source)
  await writeFile(path.join(source, 'package.json'), '{"name":"tiny","version":"1.0.0"}')
  await writeFile(path.join(source, 'index.js'), "module.exports = 'TINY-WORKS'\n")
  const name = execFileSync('npm', ['pack', '--silent'], { cwd: source, encoding: 'utf8' }).trim()
  const bytes = await readFile(path.join(source, name))
  return { bytes, sha1: createHash('sha1').update(bytes).digest('hex') }
}

/** A one-module wheel, built by Python's own zipfile, as an index would serve it. */
async function buildWheel(dir: string): Promise<{ name: string; bytes: Buffer }> {
  const { execFileSync } = await import('node:child_process')
  const name = 'tinypy-1.0.0-py3-none-any.whl'
  const file = path.join(dir, name)
  const script = [
    'import sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1], "w")',
    'z.writestr("tinypy.py", "WORKS = \'TINYPY-WORKS\'\\n")',
    'z.writestr("tinypy-1.0.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: tinypy\\nVersion: 1.0.0\\n")',
    'z.writestr("tinypy-1.0.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")',
    'z.writestr("tinypy-1.0.0.dist-info/RECORD", "")',
    'z.close()'
  ].join('\n')
  execFileSync('python3', ['-c', script, file])
  return { name, bytes: await readFile(file) }
}
