import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RecentFolders } from './recent-folders'
import { WorkspaceTrust } from './workspace-trust'

let dir: string
let dataDir: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-trust-')))
  dataDir = path.join(dir, 'data')
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function folder(name: string): Promise<string> {
  const made = path.join(dir, name)
  await mkdir(made, { recursive: true })
  return made
}

const trustFile = (): string => path.join(dataDir, 'workspace-trust.json')
const recentFile = (): string => path.join(dataDir, 'recent-folders.json')

describe('WorkspaceTrust', () => {
  it('says unknown for a folder never answered, and remembers each answer across instances', async () => {
    const a = await folder('a')
    const b = await folder('b')
    const trust = new WorkspaceTrust(dataDir)
    expect(await trust.get(a)).toBe('unknown')
    await trust.set(a, 'trusted')
    await trust.set(b, 'untrusted')
    const again = new WorkspaceTrust(dataDir)
    expect(await again.get(a)).toBe('trusted')
    expect(await again.get(b)).toBe('untrusted')
    // An answer can change either way.
    await again.set(a, 'untrusted')
    expect(await new WorkspaceTrust(dataDir).get(a)).toBe('untrusted')
  })

  it('keys by the real path: a link, a trailing slash or `..` name the same folder', async () => {
    const real = await folder('project')
    const link = path.join(dir, 'link')
    await symlink(real, link)
    const trust = new WorkspaceTrust(dataDir)
    await trust.set(link, 'trusted')
    expect(await trust.get(real)).toBe('trusted')
    expect(await trust.get(`${real}/`)).toBe('trusted')
    expect(await trust.get(path.join(real, '..', 'project'))).toBe('trusted')
    const stored = JSON.parse(await readFile(trustFile(), 'utf8')) as { folders: unknown[] }
    expect(stored.folders).toEqual([expect.objectContaining({ path: real, trust: 'trusted' })])
  })

  it('trusts neither a parent nor a child of a trusted folder', async () => {
    const parent = await folder('src')
    const child = await folder('src/vendor')
    const trust = new WorkspaceTrust(dataDir)
    await trust.set(child, 'trusted')
    expect(await trust.get(parent)).toBe('unknown')
    await trust.set(parent, 'trusted')
    await trust.set(child, 'untrusted')
    expect(await trust.get(child)).toBe('untrusted')
    expect(await trust.get(parent)).toBe('trusted')
  })

  it('counts the folders opened before trust existed as trusted, once: later ones are asked', async () => {
    const old1 = await folder('old1')
    const old2 = await folder('old2')
    const later = await folder('later')
    const recent = new RecentFolders(recentFile())
    await recent.add(old1)
    await recent.add(old2)
    const trust = new WorkspaceTrust(dataDir)
    expect(await trust.get(old1)).toBe('trusted')
    expect(await trust.get(old2)).toBe('trusted')
    expect(await trust.get(later)).toBe('unknown')
    // Opened after the change: it reaches the recent list, but the migration never runs again.
    await recent.add(later)
    expect(await new WorkspaceTrust(dataDir).get(later)).toBe('unknown')
  })

  it('keeps an answer given while the migration runs (every change is serialised)', async () => {
    const old = await folder('old')
    const fresh = await folder('fresh')
    await new RecentFolders(recentFile()).add(old)
    const trust = new WorkspaceTrust(dataDir)
    await Promise.all([trust.get(old), trust.set(fresh, 'untrusted'), trust.get(fresh)])
    const again = new WorkspaceTrust(dataDir)
    expect(await again.get(old)).toBe('trusted')
    expect(await again.get(fresh)).toBe('untrusted')
  })

  it('loses no answer when many are given at once', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `f${i}`)
    const folders = await Promise.all(names.map(folder))
    const trust = new WorkspaceTrust(dataDir)
    await Promise.all(folders.map((f, i) => trust.set(f, i % 2 === 0 ? 'trusted' : 'untrusted')))
    const again = new WorkspaceTrust(dataDir)
    for (const [i, f] of folders.entries()) {
      expect(await again.get(f)).toBe(i % 2 === 0 ? 'trusted' : 'untrusted')
    }
    // Atomic writes leave no temporary file behind.
    expect(await readdir(dataDir)).toEqual(['workspace-trust.json'])
  })

  it('fails closed on a damaged file: nothing is trusted, nothing is migrated again', async () => {
    const old = await folder('old')
    await new RecentFolders(recentFile()).add(old)
    await mkdir(dataDir, { recursive: true })
    await writeFile(trustFile(), '{"version":1,"folders":[{"path":')
    const trust = new WorkspaceTrust(dataDir)
    expect(await trust.get(old)).toBe('unknown')
    // An answer still saves, replacing the damaged file.
    await trust.set(old, 'untrusted')
    expect(await new WorkspaceTrust(dataDir).get(old)).toBe('untrusted')
  })

  it('ignores entries it cannot read, and never reads "yes" or a non-string path as trusted', async () => {
    const a = await folder('a')
    const b = await folder('b')
    await mkdir(dataDir, { recursive: true })
    await writeFile(
      trustFile(),
      JSON.stringify({
        version: 1,
        folders: [
          { path: a, trust: 'yes', decidedAt: 1 },
          { path: [b], trust: 'trusted', decidedAt: 1 },
          { path: b, trust: 'untrusted', decidedAt: 1 },
          null,
          'trusted'
        ]
      })
    )
    const trust = new WorkspaceTrust(dataDir)
    expect(await trust.get(a)).toBe('unknown')
    expect(await trust.get(b)).toBe('untrusted')
  })

  it('reads a file that is not an object as no answers, without migrating', async () => {
    const old = await folder('old')
    await new RecentFolders(recentFile()).add(old)
    await mkdir(dataDir, { recursive: true })
    for (const text of ['null', '[]', '"trusted"', '{"folders":{"__proto__":"trusted"}}']) {
      await writeFile(trustFile(), text)
      expect(await new WorkspaceTrust(dataDir).get(old)).toBe('unknown')
    }
  })

  it('handles folder names that are also object keys', async () => {
    const proto = await folder('__proto__')
    const ctor = await folder('constructor')
    const trust = new WorkspaceTrust(dataDir)
    expect(await trust.get(proto)).toBe('unknown')
    expect(await trust.get(ctor)).toBe('unknown')
    await trust.set(proto, 'trusted')
    expect(await new WorkspaceTrust(dataDir).get(proto)).toBe('trusted')
    expect(await new WorkspaceTrust(dataDir).get(ctor)).toBe('unknown')
  })

  it('says unknown for a folder that does not exist, and refuses to answer for it', async () => {
    const trust = new WorkspaceTrust(dataDir)
    const gone = path.join(dir, 'gone')
    expect(await trust.get(gone)).toBe('unknown')
    await expect(trust.set(gone, 'trusted')).rejects.toThrow(/does not exist/)
  })

  it('with trustAll (`--trust-project`) trusts every folder for this run and stores nothing', async () => {
    const a = await folder('a')
    await new WorkspaceTrust(dataDir).set(a, 'untrusted')
    const before = await readFile(trustFile(), 'utf8')
    const run = new WorkspaceTrust(dataDir, { trustAll: true })
    expect(await run.get(a)).toBe('trusted')
    expect(await run.get(await folder('b'))).toBe('trusted')
    expect(await readFile(trustFile(), 'utf8')).toBe(before)
    expect(await new WorkspaceTrust(dataDir).get(a)).toBe('untrusted')
  })
})
