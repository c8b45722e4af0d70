import {
  chmod,
  lstat,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KeyFile } from './key-file'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-keyfile-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('KeyFile', () => {
  it('keeps keys in a file only its owner can read (0600) and reads them back', async () => {
    const keys = new KeyFile(dir)
    await keys.store('local.api_key', 'sk-one')
    await keys.store('other.api_key', 'sk-two')
    const info = await stat(keys.path)
    expect(info.mode & 0o777).toBe(0o600)
    expect(keys.read('local.api_key')).toBe('sk-one')
    // A fresh instance (the next start) reads the same file.
    expect(new KeyFile(dir).read('other.api_key')).toBe('sk-two')
    expect(new KeyFile(dir).read('missing')).toBeUndefined()
    expect(JSON.parse(await readFile(keys.path, 'utf8'))).toEqual({
      'local.api_key': 'sk-one',
      'other.api_key': 'sk-two'
    })
  })

  it('reads nothing when there is no file yet', () => {
    expect(new KeyFile(dir).read('local.api_key')).toBeUndefined()
  })

  it('refuses a key file that others can read, with a sentence saying how to fix it', async () => {
    const keys = new KeyFile(dir)
    await keys.store('local.api_key', 'sk-one')
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      await chmod(keys.path, mode)
      expect(() => keys.read('local.api_key')).toThrow(
        new RegExp(`can be read by others \\(mode 0${mode.toString(8)}\\).*chmod 600`)
      )
      await expect(keys.store('local.api_key', 'sk-new')).rejects.toThrow(/can be read by others/)
    }
  })

  it('refuses a key file that is a link, since its target may be anyone', async () => {
    const elsewhere = path.join(dir, 'elsewhere.json')
    await writeFile(elsewhere, '{"local.api_key":"sk-evil"}', { mode: 0o600 })
    await symlink(elsewhere, path.join(dir, 'provider-keys.json'))
    expect(() => new KeyFile(dir).read('local.api_key')).toThrow(/is not a plain file/)
  })

  it('refuses a key file that is not JSON of names to strings', async () => {
    await writeFile(path.join(dir, 'provider-keys.json'), '{"a": 1', { mode: 0o600 })
    expect(() => new KeyFile(dir).read('a')).toThrow(/could not be read as JSON/)
    await writeFile(path.join(dir, 'provider-keys.json'), '["x"]', { mode: 0o600 })
    expect(() => new KeyFile(dir).read('a')).toThrow(/names to keys/)
  })

  it('keeps every key when many are stored at once, from several instances (one per process)', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `KEY_${i}`)
    // Each instance stands for a process: none shares the other's memory, only the file.
    await Promise.all(names.map((name) => new KeyFile(dir).store(name, `sk-${name}`)))
    const keys = new KeyFile(dir)
    expect(keys.names()).toEqual([...names].sort())
    for (const name of names) expect(keys.read(name)).toBe(`sk-${name}`)
    expect((await stat(keys.path)).mode & 0o777).toBe(0o600)
    // Nothing of the lock is left behind.
    expect((await readdir(dir)).sort()).toEqual(['provider-keys.json'])
  })

  it('takes over a lock whose holder died mid-change, and waits for a live one', async () => {
    const keys = new KeyFile(dir)
    await keys.store('A', 'sk-a')
    // A pid far past any pid_max: no such process, as after a kill -9 mid-change.
    await writeFile(`${keys.path}.lock`, '2147483646', { mode: 0o600 })
    await keys.store('B', 'sk-b')
    expect(keys.names()).toEqual(['A', 'B'])
    await expect(lstat(`${keys.path}.lock`)).rejects.toThrow(/ENOENT/)
  })

  it('removes one key and leaves the rest; says when there was none', async () => {
    const keys = new KeyFile(dir)
    await keys.store('A', 'sk-a')
    await keys.store('B', 'sk-b')
    expect(await keys.remove('A')).toBe(true)
    expect(await keys.remove('A')).toBe(false)
    expect(keys.names()).toEqual(['B'])
    expect(keys.mode()).toBe(0o600)
    expect(new KeyFile(path.join(dir, 'none')).mode()).toBeNull()
  })
})
