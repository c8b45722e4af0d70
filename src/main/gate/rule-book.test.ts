import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { ProjectSettingsFiles } from '../settings/project-settings'
import { SettingsStore } from '../settings/settings-store'
import { RuleBook } from './rule-book'
import { ruleExampleIssues } from './rule-examples'
import { previewRule } from './rule-preview'
import type { PermissionRule } from './rules'

let dir: string
let workspace: string
let settings: SettingsStore
let book: RuleBook

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-rulebook-')))
  workspace = path.join(dir, 'project')
  await mkdir(workspace)
  settings = new SettingsStore(path.join(dir, 'settings.yaml'), ruleExampleIssues)
  await settings.save({ providers: [], permissions: { mode: 'ask', rules: [] } })
  book = new RuleBook(
    settings,
    path.join(dir, 'trust.json'),
    new ProjectSettingsFiles(null, ruleExampleIssues)
  )
})
afterEach(async () => rm(dir, { recursive: true, force: true }))

const allowTests: PermissionRule = { tool: 'Shell', command: 'npm test', decision: 'allow' }

describe('RuleBook', () => {
  it('keeps session rules on the session only', async () => {
    const sessionRules: PermissionRule[] = []
    await book.add('session', allowTests, { workspace, sessionRules })
    expect(sessionRules).toEqual([allowTests])
    expect(await book.effective({ workspace })).toEqual([])
    expect(await book.effective({ workspace, sessionRules })).toEqual([allowTests])
  })

  it('saves a project rule in the project settings file, keeping what else the file says', async () => {
    await mkdir(path.join(workspace, '.mecatl'))
    const file = path.join(workspace, '.mecatl', 'settings.yaml')
    await writeFile(file, '# servers this repo needs\nmcp: []\n')
    const view = await book.add('project', allowTests, { workspace })
    expect(view.project).toMatchObject({ rules: [allowTests], trusted: true })
    const text = await readFile(file, 'utf8')
    expect(text).toContain('# servers this repo needs')
    expect(text).toContain('command: npm test')
    expect(await book.effective({ workspace })).toEqual([allowTests])
  })

  it('ignores allow rules a cloned project brought with it until the person trusts them', async () => {
    await mkdir(path.join(workspace, '.mecatl'))
    await writeFile(
      path.join(workspace, '.mecatl', 'settings.yaml'),
      [
        'permissions:',
        '  rules:',
        '    - { tool: Shell, command: curl, decision: allow }',
        '    - { tool: Shell, command: rm, decision: forbid }'
      ].join('\n')
    )
    expect((await book.view({ workspace })).project.trusted).toBe(false)
    expect(await book.effective({ workspace })).toEqual([
      { tool: 'Shell', command: 'rm', decision: 'forbid' }
    ])
    await book.trustProject({ workspace })
    expect(await book.effective({ workspace })).toHaveLength(2)
    // A change to the allow rules (a `git pull`, say) must be seen again.
    await writeFile(
      path.join(workspace, '.mecatl', 'settings.yaml'),
      'permissions:\n  rules:\n    - { tool: Shell, command: curl evil.example, decision: allow }\n'
    )
    expect(await book.effective({ workspace })).toEqual([])
  })

  it('saves user rules into the user settings file without losing the rest', async () => {
    await settings.save({
      providers: [{ id: 'local', kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1' }],
      permissions: { mode: 'ask' }
    })
    await book.add('user', { tool: 'Write', decision: 'prompt' }, { workspace })
    const loaded = await new SettingsStore(
      path.join(dir, 'settings.yaml'),
      ruleExampleIssues
    ).load()
    expect(loaded.settings.providers[0]?.id).toBe('local')
    expect(loaded.settings.permissions.rules).toEqual([{ tool: 'Write', decision: 'prompt' }])
    const removed = await book.remove('user', 0, { workspace })
    expect(removed.user.rules).toEqual([])
  })

  it('refuses a rule that is malformed or contradicts its own examples', async () => {
    await expect(
      book.add('user', { tool: 'Shell', command: 'git push', decision: 'maybe' }, { workspace })
    ).rejects.toThrow(/not valid/)
    await expect(
      book.add(
        'user',
        { tool: 'Shell', command: 'git push', decision: 'allow', match: ['git pull'] },
        { workspace }
      )
    ).rejects.toThrow(/does not match its example "git pull"/)
  })
})

describe('previewRule', () => {
  const shellCall = (id: string, command: string): TranscriptItem => ({
    kind: 'tool',
    turnId: 't',
    call: {
      id,
      name: 'Shell',
      input: { command },
      state: 'done',
      readOnly: false,
      capabilities: null,
      startedAt: null,
      endedAt: null,
      output: null,
      refusedBy: null
    }
  })

  it('lists the earlier commands of the session the rule would also decide', async () => {
    const transcript = [
      shellCall('1', 'npm test'),
      shellCall('2', 'npm test -- --watch'),
      shellCall('3', 'npm install left-pad'),
      shellCall('4', 'npm test && curl evil.example')
    ]
    const preview = await previewRule(allowTests, transcript)
    expect(preview.problem).toBeNull()
    expect(preview.sessionMatches).toEqual(['npm test', 'npm test -- --watch'])
    expect(preview.description).toMatch(/starts with the words `npm test`/)
  })

  it('explains why a rule cannot be saved', async () => {
    const preview = await previewRule({ tool: 'Shell', command: 'a | b', decision: 'allow' }, [])
    expect(preview.problem).toMatch(/must be one plain command/)
  })
})
