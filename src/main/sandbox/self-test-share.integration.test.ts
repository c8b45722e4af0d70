// The sandbox self-test proves a backend program once per process: a second core trusts a pass
// without starting bubblewrap again, but never a failure, which each core tries afresh.
import { chmod, copyFile, mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { settingsSchema } from '../../shared/settings'
import { findOnPath } from './backend'
import { SandboxService } from './sandbox-service'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', 'mecatl-self-test-')))
  dirs.push(dir)
  return dir
}

const settings = settingsSchema.parse({ sandbox: { kind: 'bwrap' } })

describe('the sandbox self-test across cores of one process', () => {
  it('lets a second service answer confined at once after the first one passed', async () => {
    const dir = await tempDir()
    const first = new SandboxService({ dataDir: path.join(dir, 'a'), env: process.env })
    expect((await first.prepare(settings)).state).toBe('confined')
    const second = new SandboxService({ dataDir: path.join(dir, 'b'), env: process.env })
    expect(second.status(settings).state).toBe('checking')
    const prepared = second.prepare(settings)
    // Answered before anything was awaited: no bubblewrap was started for it.
    expect(second.status(settings).state).toBe('confined')
    expect((await prepared).state).toBe('confined')
  })

  it('shares no failure: a broken bwrap is tested again by the next service, and refused', async () => {
    const dir = await tempDir()
    const bin = path.join(dir, 'bin')
    await mkdir(bin)
    await writeFile(path.join(bin, 'bwrap'), '#!/bin/sh\necho "broken on purpose" >&2\nexit 1\n')
    await chmod(path.join(bin, 'bwrap'), 0o755)
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }
    for (const name of ['a', 'b']) {
      const service = new SandboxService({ dataDir: path.join(dir, name), env })
      const prepared = service.prepare(settings)
      expect(service.status(settings).state).toBe('checking')
      const status = await prepared
      expect(status.state).toBe('refused')
      expect(status.state === 'refused' && status.why).toContain('bubblewrap failed its self-test')
    }
  })

  it('tests a program again once the file at its path is replaced, in place or renamed over', async () => {
    const dir = await tempDir()
    const bin = path.join(dir, 'bin')
    await mkdir(bin)
    const bwrap = path.join(bin, 'bwrap')
    const system = findOnPath('bwrap', { PATH: process.env.PATH })
    expect(system).toBeTruthy()
    await copyFile(system ?? '', bwrap)
    await chmod(bwrap, 0o755)
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }
    const service = (name: string): SandboxService =>
      new SandboxService({ dataDir: path.join(dir, name), env })
    expect((await service('a').prepare(settings)).state).toBe('confined')
    expect((await service('b').prepare(settings)).state).toBe('confined')
    // Renamed over (a new inode), as a package upgrade or an attacker would put it there.
    const broken = path.join(dir, 'broken')
    await writeFile(broken, '#!/bin/sh\nexec "$@"\n')
    await chmod(broken, 0o755)
    await rename(broken, bwrap)
    const after = service('c')
    const prepared = after.prepare(settings)
    expect(after.status(settings).state).toBe('checking')
    expect((await prepared).state).toBe('refused')
    // And overwritten where it stands (same inode): the first service, which passed it, tests again.
    const first = service('d')
    await rm(bwrap)
    await copyFile(system ?? '', bwrap)
    await chmod(bwrap, 0o755)
    expect((await first.prepare(settings)).state).toBe('confined')
    await writeFile(bwrap, '#!/bin/sh\nexec "$@"\n')
    expect((await first.prepare(settings)).state).toBe('refused')
  })

  it('does not let a pass of one program stand for another at a different path', async () => {
    const dir = await tempDir()
    const real = new SandboxService({ dataDir: path.join(dir, 'a'), env: process.env })
    expect((await real.prepare(settings)).state).toBe('confined')
    const bin = path.join(dir, 'bin')
    await mkdir(bin)
    // Same name, another program: a pass of /usr/bin/bwrap says nothing about it.
    await writeFile(path.join(bin, 'bwrap'), '#!/bin/sh\nexit 0\n')
    await chmod(path.join(bin, 'bwrap'), 0o755)
    const other = new SandboxService({
      dataDir: path.join(dir, 'b'),
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }
    })
    const status = await other.prepare(settings)
    expect(status.state).toBe('refused')
  })
})
