import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { settingsSchema } from '../../shared/settings'
import { SettingsStore } from './settings-store'
import { ruleExampleIssues } from '../gate/rule-examples'

let dir: string
let file: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-appearance-')))
  file = path.join(dir, 'settings.yaml')
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

describe('appearance settings', () => {
  it('defaults to following the system', () => {
    expect(settingsSchema.parse({}).appearance).toEqual({ theme: 'system' })
    expect(settingsSchema.parse({ appearance: {} }).appearance).toEqual({ theme: 'system' })
  })

  it('loads light and dark from the settings file', async () => {
    await writeFile(file, 'appearance:\n  theme: dark\n')
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.issues).toEqual([])
    expect(loaded.settings.appearance.theme).toBe('dark')
    expect(settingsSchema.parse({ appearance: { theme: 'light' } }).appearance.theme).toBe('light')
  })

  it('refuses an unknown theme, a misspelt key and a wrong type', () => {
    for (const appearance of [
      { theme: 'Dark' },
      { theme: 'auto' },
      { theme: '' },
      { them: 'dark' },
      { theme: 'dark', accent: 'red' },
      'dark',
      null
    ]) {
      expect(settingsSchema.safeParse({ appearance }).success, JSON.stringify(appearance)).toBe(
        false
      )
    }
  })

  it('names the broken entry in a file, and keeps the last valid theme in force', async () => {
    const store = new SettingsStore(file, ruleExampleIssues)
    await writeFile(file, 'appearance: { theme: dark }\n')
    await store.load()
    await writeFile(file, 'appearance: { theme: midnight }\n')
    const loaded = await store.load()
    expect(loaded.source).toBe('last-valid')
    expect(loaded.settings.appearance.theme).toBe('dark')
    expect(loaded.issues.map((i) => i.path)).toContain('appearance.theme')
  })
})
