import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsStore } from './settings-store'

let dir: string
let file: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-settings-')))
  file = path.join(dir, 'settings.yaml')
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

describe('SettingsStore', () => {
  it('runs on defaults when there is no file yet', async () => {
    const loaded = await new SettingsStore(file).load()
    expect(loaded.issues).toEqual([])
    expect(loaded.settings).toMatchObject({ providers: [], permissions: { mode: 'ask' } })
  })

  it('loads a valid file', async () => {
    await writeFile(
      file,
      [
        'providers:',
        '  - id: local',
        '    kind: openai-compatible',
        '    base_url: http://127.0.0.1:11434/v1',
        '    models: [llama3.2]',
        'default_model: { provider: local, model: llama3.2 }',
        'permissions: { mode: read-only }'
      ].join('\n')
    )
    const loaded = await new SettingsStore(file).load()
    expect(loaded.issues).toEqual([])
    expect(loaded.settings.providers[0]).toMatchObject({ id: 'local', models: ['llama3.2'] })
    expect(loaded.settings.permissions.mode).toBe('read-only')
  })

  it('reports malformed YAML with the file name, runs on defaults, and leaves the file alone', async () => {
    const broken = 'providers:\n  - id: x\n    kind: [unclosed\n'
    await writeFile(file, broken)
    const loaded = await new SettingsStore(file).load()
    expect(loaded.issues[0]?.message).toMatch(/^settings\.yaml is not valid YAML/)
    expect(loaded.settings.providers).toEqual([])
    expect(await readFile(file, 'utf8')).toBe(broken)
  })

  it('names each invalid setting by its path and says what to do', async () => {
    await writeFile(
      file,
      [
        'providers:',
        '  - id: compat',
        '    kind: openai-compatible',
        '  - id: keyed',
        '    kind: openai',
        '    api_key_env: sk-live-abc123',
        'default_model: { provider: missing, model: m }'
      ].join('\n')
    )
    const loaded = await new SettingsStore(file).load()
    const byPath = Object.fromEntries(loaded.issues.map((i) => [i.path, i.message]))
    expect(byPath['providers.0.base_url']).toMatch(/needs a base URL/)
    expect(byPath['providers.1.api_key_env']).toMatch(/name of an environment variable, not a key/)
    expect(byPath['default_model.provider']).toBe('no provider has the id "missing"')
  })

  it('refuses to save invalid settings and writes nothing', async () => {
    const store = new SettingsStore(file)
    const result = await store.save({ providers: [{ id: 'x', kind: 'nope' }] })
    expect(result.saved).toBe(false)
    expect(result.issues[0]?.path).toBe('providers.0.kind')
    expect(await readdir(dir)).toEqual([])
  })

  it('saves valid settings as YAML that loads back the same', async () => {
    const store = new SettingsStore(file)
    const settings = {
      providers: [
        { id: 'claude', kind: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY', models: [] }
      ],
      default_model: { provider: 'claude', model: 'claude-sonnet-4-5' }
    }
    expect(await store.save(settings)).toEqual({ saved: true, issues: [] })
    const loaded = await new SettingsStore(file).load()
    expect(loaded.raw).toEqual(settings)
    expect(loaded.settings.default_model).toEqual(settings.default_model)
  })

  it('keeps a backup of a malformed file before replacing it', async () => {
    await writeFile(file, 'this: [is: broken\n')
    const store = new SettingsStore(file)
    await store.load()
    expect((await store.save({})).saved).toBe(true)
    const names = await readdir(dir)
    const backup = names.find((n) => n.startsWith('settings.yaml.bak-'))
    expect(backup).toBeDefined()
    expect(await readFile(path.join(dir, backup ?? ''), 'utf8')).toBe('this: [is: broken\n')
  })
})

describe('permission rules in settings', () => {
  it('checks each rule against its own examples when the settings load, failing loudly', async () => {
    await writeFile(
      file,
      [
        'permissions:',
        '  mode: ask',
        '  rules:',
        '    - { tool: Shell, command: git status, decision: allow, match: [git status -s] }',
        '    - { tool: Shell, command: git push, decision: prompt, not_match: [git push origin] }'
      ].join('\n')
    )
    const loaded = await new SettingsStore(file).load()
    expect(loaded.issues).toEqual([
      {
        path: 'permissions.rules.1',
        message: 'the rule "git push" matches "git push origin", listed under not_match'
      }
    ])
    expect(loaded.settings.permissions.rules).toEqual([])
  })

  it('refuses a command on a rule for another tool', async () => {
    const result = await new SettingsStore(file).save({
      permissions: { rules: [{ tool: 'Write', command: 'x', decision: 'allow' }] }
    })
    expect(result.issues[0]?.path).toBe('permissions.rules.0.command')
  })
})
