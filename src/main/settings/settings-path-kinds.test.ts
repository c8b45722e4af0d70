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
import { makeFifo } from '../../../testing/fifo'
import { dataDirectory, DataDirError } from './data-dir'
import { settingsBlocked, SettingsStore } from './settings-store'
import { ruleExampleIssues } from '../gate/rule-examples'

// The app's side of a settings path that is not a settings file: the banner names it, the last
// valid copy stays in force (or nothing runs), and nothing waits on it.
let dir: string
let file: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-settings-kinds-')))
  file = path.join(dir, 'settings.yaml')
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

describe('SettingsStore on a settings path that is not a file', () => {
  it('a link to nothing is a problem shown in the banner, never the defaults', async () => {
    await symlink(path.join(dir, 'moved-away.yaml'), file)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.source).toBe('none')
    expect(settingsBlocked(loaded)).toBe(true)
    expect(loaded.issues).toEqual([
      {
        path: '(file)',
        message: `settings.yaml is a link to ${path.join(dir, 'moved-away.yaml')}, which does not exist; point the link at your settings file, or remove it to start from the defaults`
      }
    ])
  })

  it('a FIFO is a problem at once, with the last valid copy kept in force', async () => {
    await writeFile(file, 'permissions: { mode: read-only }\n')
    const store = new SettingsStore(file, ruleExampleIssues)
    expect((await store.load()).source).toBe('file')
    await rm(file)
    makeFifo(file)
    const loaded = await store.load()
    expect(loaded.source).toBe('last-valid')
    expect(loaded.settings.permissions.mode).toBe('read-only')
    expect(loaded.issues[0]?.message).toBe(
      'settings.yaml is a FIFO (a named pipe), not a settings file; settings are read only from a regular file'
    )
  }, 5_000)

  it('a link to a FIFO or to a folder is named for what it leads to', async () => {
    makeFifo(path.join(dir, 'pipe'))
    await symlink(path.join(dir, 'pipe'), file)
    expect((await new SettingsStore(file, ruleExampleIssues).load()).issues[0]?.message).toMatch(
      /is a FIFO/
    )
    await rm(file)
    await mkdir(path.join(dir, 'folder'))
    await symlink(path.join(dir, 'folder'), file)
    expect((await new SettingsStore(file, ruleExampleIssues).load()).issues[0]?.message).toMatch(
      /is a folder/
    )
  }, 5_000)

  it('a link to a valid file is read through', async () => {
    await writeFile(path.join(dir, 'real.yaml'), 'permissions: { mode: read-only }\n')
    await symlink(path.join(dir, 'real.yaml'), file)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.source).toBe('file')
    expect(loaded.settings.permissions.mode).toBe('read-only')
  })

  it('saving over a FIFO replaces it with the file, without waiting to back it up', async () => {
    makeFifo(file)
    const store = new SettingsStore(file, ruleExampleIssues)
    expect((await store.load()).issues).toHaveLength(1)
    expect(await store.save({ permissions: { mode: 'allow' } })).toEqual({
      saved: true,
      issues: []
    })
    expect(await readFile(file, 'utf8')).toContain('mode: allow')
    expect((await readdir(dir)).filter((name) => name.includes('.bak-'))).toEqual([])
  }, 5_000)
})

describe('dataDirectory', () => {
  it('refuses a MECATL_HOME that is a link to nothing, which no folder can be made through', async () => {
    const home = path.join(dir, 'home')
    await symlink(path.join(dir, 'unmounted'), home)
    expect(() => dataDirectory({ MECATL_HOME: home })).toThrow(DataDirError)
    expect(() => dataDirectory({ MECATL_HOME: home })).toThrow(
      `MECATL_HOME (${home}) is a link to ${path.join(dir, 'unmounted')}, which does not exist`
    )
  })
})
