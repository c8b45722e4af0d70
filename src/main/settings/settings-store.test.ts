import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { settingsSchema } from '../../shared/settings'
import { readSettingsFile } from './settings-file'
import { settingsBlocked, SettingsStore } from './settings-store'
import { ruleExampleIssues } from '../gate/rule-examples'

let dir: string
let file: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-settings-')))
  file = path.join(dir, 'settings.yaml')
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

/** The settings of the issue's report: a forbid rule, no shell, read-only mode. */
const careful = [
  'permissions:',
  '  mode: read-only',
  '  rules:',
  '    - { tool: Shell, command: rm, decision: forbid }',
  'shell: { enabled: false }',
  'max_tokens: 4096'
].join('\n')

describe('SettingsStore', () => {
  it('runs on defaults when there is no file yet', async () => {
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded).toMatchObject({ issues: [], source: 'defaults' })
    expect(settingsBlocked(loaded)).toBe(false)
    expect(loaded.settings).toMatchObject({ providers: [], permissions: { mode: 'ask' } })
  })

  it('loads a valid file and keeps an exact copy of it beside the file', async () => {
    const text = `# my settings\n${careful}\n`
    await writeFile(file, text)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded).toMatchObject({ issues: [], source: 'file' })
    expect(loaded.settings.permissions.mode).toBe('read-only')
    expect(await readFile(path.join(dir, 'settings.last-valid.yaml'), 'utf8')).toBe(text)
  })

  it('loads the file as a command has just read and checked it, without reading it again', async () => {
    await writeFile(file, `${careful}\n`)
    const checked = await readSettingsFile(file, settingsSchema, async () => [])
    // Changed after the check: what was checked is what runs, and the change waits for a reload.
    await writeFile(file, 'permissions: { mode: allow }\n')
    const store = new SettingsStore(file, ruleExampleIssues)
    const loaded = await store.load(checked)
    expect(loaded).toMatchObject({ issues: [], source: 'file' })
    expect(loaded.settings.permissions.mode).toBe('read-only')
    expect(await readFile(path.join(dir, 'settings.last-valid.yaml'), 'utf8')).toBe(`${careful}\n`)
    expect((await store.load()).settings.permissions.mode).toBe('allow')
  })

  it('a typo elsewhere keeps the last valid settings in force: the forbid rule, no shell, read-only', async () => {
    await writeFile(file, careful)
    const store = new SettingsStore(file, ruleExampleIssues)
    await store.load()
    // The person edits the file and misspells a key (and puts a string where a number goes).
    await writeFile(file, `${careful}\nshel: { enabled: true }\ntool_output_budget_bytes: lots\n`)
    const loaded = await store.load()
    expect(loaded.source).toBe('last-valid')
    expect(settingsBlocked(loaded)).toBe(false)
    expect(loaded.settings.permissions).toEqual({
      mode: 'read-only',
      rules: [{ tool: 'Shell', command: 'rm', decision: 'forbid' }]
    })
    expect(loaded.settings.shell.enabled).toBe(false)
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        path: 'shel',
        line: 7,
        column: 1,
        message: '"shel" is not a setting here; did you mean "shell"?'
      }),
      expect.objectContaining({ path: 'tool_output_budget_bytes', line: 8, column: 1 })
    ])
    // A later start finds the copy too: nothing depends on this process having seen the file.
    const restarted = await new SettingsStore(file, ruleExampleIssues).load()
    expect(restarted.source).toBe('last-valid')
    expect(restarted.settings.permissions.mode).toBe('read-only')
  })

  it('with no valid copy to fall back on, nothing is in force: blocked, never the defaults', async () => {
    await writeFile(file, `${careful}\npermisions: { mode: allow }\n`)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.source).toBe('none')
    expect(settingsBlocked(loaded)).toBe(true)
    expect(loaded.issues[0]).toMatchObject({
      path: 'permisions',
      line: 7,
      message: '"permisions" is not a setting here; did you mean "permissions"?'
    })
  })

  it('a damaged last-valid copy is no fallback either', async () => {
    await writeFile(path.join(dir, 'settings.last-valid.yaml'), 'mode: [oops')
    await writeFile(file, 'nonsense: true\n')
    expect((await new SettingsStore(file, ruleExampleIssues).load()).source).toBe('none')
  })

  it('says "did you mean" for a misspelt key at any depth, with its line and column', async () => {
    await writeFile(
      file,
      [
        'permissions:',
        '  mdoe: ask',
        'mcp:',
        '  - name: db',
        '    comand: sqlite-mcp',
        'websearch:',
        '  backends:',
        '    - kind: searxng',
        '      urll: https://search.example.org',
        'providers:',
        '  - { id: a, kind: openai, modles: [x] }'
      ].join('\n')
    )
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    const byPath = Object.fromEntries(loaded.issues.map((i) => [i.path, i]))
    expect(byPath['permissions.mdoe']).toMatchObject({ line: 2, column: 3 })
    expect(byPath['permissions.mdoe']?.message).toMatch(/did you mean "mode"\?/)
    expect(byPath['mcp.0.comand']).toMatchObject({ line: 5, column: 5 })
    expect(byPath['mcp.0.comand']?.message).toMatch(/did you mean "command"\?/)
    expect(byPath['mcp.0.command']?.message).toMatch(
      /^give the program to run \(command\), or the address/
    )
    expect(byPath['websearch.backends.0.urll']?.message).toMatch(/did you mean "url"\?/)
    expect(byPath['websearch.backends.0.urll']).toMatchObject({ line: 9, column: 7 })
    expect(byPath['providers.0.modles']?.message).toMatch(/did you mean "models"\?/)
    expect(byPath['providers.0.modles']).toMatchObject({ line: 11, column: 28 })
  })

  it('lists the known keys when nothing is close to the misspelt one', async () => {
    await writeFile(file, 'shell: { turned_on: true }\n')
    const [issue] = (await new SettingsStore(file, ruleExampleIssues).load()).issues
    expect(issue?.message).toBe(
      '"turned_on" is not a setting here (known: enabled, env_passthrough)'
    )
  })

  it('reports malformed YAML with the file name, line and column, and leaves the file alone', async () => {
    const broken = 'providers:\n  - id: x\n    kind: [unclosed\n'
    await writeFile(file, broken)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.issues[0]?.message).toMatch(/^not valid YAML: \S/)
    expect(loaded.issues[0]?.message).not.toMatch(/line \d+, column/)
    expect(loaded.issues[0]?.line).toBeGreaterThanOrEqual(3)
    expect(loaded.source).toBe('none')
    expect(await readFile(file, 'utf8')).toBe(broken)
  })

  it('refuses a YAML alias bomb with a sentence, not a stack trace or a hang', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]'
    ].join('\n')
    await writeFile(file, bomb)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.source).toBe('none')
    expect(loaded.issues).toEqual([
      {
        path: '(file)',
        message: expect.stringMatching(/aliases \(\*name\) too many times.*billion laughs/)
      }
    ])
  })

  it('refuses a file over a mebibyte without parsing it', async () => {
    await writeFile(file, `# ${'x'.repeat(2 * 1024 * 1024)}\n`)
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.issues[0]?.message).toMatch(
      /^settings\.yaml is 2\.0 MiB; a settings file may be at most 1\.0 MiB/
    )
  })

  it('says so when the settings path is a folder', async () => {
    const folder = path.join(dir, 'folder.yaml')
    await writeFile(path.join(dir, 'placeholder'), '')
    await import('node:fs/promises').then((fs) => fs.mkdir(folder))
    const loaded = await new SettingsStore(folder, ruleExampleIssues).load()
    expect(loaded.issues[0]?.message).toMatch(/is a folder, not a settings file/)
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
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    const byPath = Object.fromEntries(loaded.issues.map((i) => [i.path, i]))
    expect(byPath['providers.0.base_url']?.message).toMatch(/needs a base URL/)
    expect(byPath['providers.0.base_url']?.line).toBe(2)
    expect(byPath['providers.1.api_key_env']?.message).toMatch(/name of an environment variable/)
    expect(byPath['providers.1.api_key_env']).toMatchObject({ line: 6, column: 5 })
    expect(byPath['default_model.provider']?.message).toBe('no provider has the id "missing"')
  })

  it('refuses to save invalid settings and writes nothing', async () => {
    const store = new SettingsStore(file, ruleExampleIssues)
    const result = await store.save({ providers: [{ id: 'x', kind: 'nope' }], shel: {} })
    expect(result.saved).toBe(false)
    expect(result.issues.map((i) => i.path)).toEqual(['providers.0.kind', 'shel'])
    expect(result.issues[1]?.message).toMatch(/did you mean "shell"/)
    expect(await readdir(dir)).toEqual([])
  })

  it('saves valid settings as YAML that loads back the same, and keeps them as the valid copy', async () => {
    const store = new SettingsStore(file, ruleExampleIssues)
    const settings = {
      providers: [
        { id: 'claude', kind: 'anthropic', api_key_env: 'ANTHROPIC_API_KEY', models: [] }
      ],
      default_model: { provider: 'claude', model: 'claude-sonnet-4-5' }
    }
    expect(await store.save(settings)).toEqual({ saved: true, issues: [] })
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.raw).toEqual(settings)
    expect(loaded.settings.default_model).toEqual(settings.default_model)
    expect(await readFile(path.join(dir, 'settings.last-valid.yaml'), 'utf8')).toBe(
      await readFile(file, 'utf8')
    )
  })

  it('keeps a backup of a malformed file before replacing it', async () => {
    await writeFile(file, 'this: [is: broken\n')
    const store = new SettingsStore(file, ruleExampleIssues)
    await store.load()
    expect((await store.save({})).saved).toBe(true)
    const names = await readdir(dir)
    const backup = names.find((n) => n.startsWith('settings.yaml.bak-'))
    expect(backup).toBeDefined()
    expect(await readFile(path.join(dir, backup ?? ''), 'utf8')).toBe('this: [is: broken\n')
  })

  it('tells listeners when the settings in force change, and the banner when problems come and go', async () => {
    await writeFile(file, careful)
    const store = new SettingsStore(file, ruleExampleIssues)
    const changes: string[] = []
    const statuses: string[] = []
    store.onChange((s) => changes.push(s.permissions.mode))
    store.onStatus((l) => statuses.push(`${l.source}:${l.issues.length}`))
    await store.load()
    await store.load()
    await writeFile(file, `${careful}\nshel: 1\n`)
    await store.load()
    await store.load()
    await writeFile(file, careful.replace('read-only', 'ask'))
    await store.load()
    // Loading the same thing again tells nobody; a broken file keeps the same settings in force.
    expect(changes).toEqual(['read-only', 'ask'])
    expect(statuses).toEqual(['file:0', 'last-valid:1', 'file:0'])
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
    const loaded = await new SettingsStore(file, ruleExampleIssues).load()
    expect(loaded.issues).toEqual([
      expect.objectContaining({
        path: 'permissions.rules.1',
        line: 5,
        message: 'the rule "git push" matches "git push origin", listed under not_match'
      })
    ])
    expect(loaded.source).toBe('none')
  })

  it('refuses a command on a rule for another tool', async () => {
    const result = await new SettingsStore(file, ruleExampleIssues).save({
      permissions: { rules: [{ tool: 'Write', command: 'x', decision: 'allow' }] }
    })
    expect(result.issues[0]?.path).toBe('permissions.rules.0.command')
  })
})
