import { mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expandCommand, loadCommands } from './commands'
import { commandFixtures, skillFixtures, writeFiles } from '../../../testing/skill-fixtures'
import { parseFrontMatter } from './front-matter'
import { scanSkills } from './skills'

let dir: string
let workspace: string
let userDir: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-skills-')))
  workspace = path.join(dir, 'project')
  userDir = path.join(dir, 'home')
  await writeFiles(workspace, { ...skillFixtures, ...commandFixtures })
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('front matter', () => {
  it('reads CRLF files and files without a final newline', () => {
    expect(parseFrontMatter('---\r\nname: a\r\n---\r\nbody\r\n')).toEqual({
      ok: true,
      data: { name: 'a' },
      body: 'body\n'
    })
    expect(parseFrontMatter('---\nname: a\n---')).toEqual({
      ok: true,
      data: { name: 'a' },
      body: ''
    })
    expect(parseFrontMatter('no front matter')).toEqual({
      ok: true,
      data: {},
      body: 'no front matter'
    })
  })

  it('reports YAML that is not a mapping', () => {
    expect(parseFrontMatter('---\n- a\n- b\n---\n')).toMatchObject({ ok: false })
  })
})

describe('skill folders', () => {
  it('loads real-world SKILL.md formats and skips malformed ones with the reason', async () => {
    await writeFiles(userDir, {
      'skills/pdf/SKILL.md': '---\nname: pdf\ndescription: the user copy\n---\nshadowed\n',
      'skills/tidy/SKILL.md':
        '---\nname: tidy\ndescription: Tidy imports\nmodel: any\n---\nSort them.\n'
    })
    const { skills, views } = await scanSkills(workspace, userDir)
    expect(skills.map((s) => [s.name, s.origin])).toEqual([
      ['commit-style', 'project'],
      ['pdf', 'project'],
      ['release-notes', 'project'],
      ['tidy', 'user']
    ])
    const byName = new Map(skills.map((s) => [s.name, s]))
    expect(byName.get('pdf')?.description).toMatch(/^Extract text and tables/)
    expect(byName.get('pdf')?.body).toContain('Read `reference.md`')
    expect(byName.get('release-notes')?.description).toBe(
      'Write release notes: group changes by area'
    )
    expect(byName.get('release-notes')?.body).toBe(
      'Collect the merged changes since the last tag.\nGroup them by area.'
    )
    expect(byName.get('commit-style')?.description).toBe('How this project writes commit messages.')
    expect(byName.get('commit-style')?.body).toBe('Imperative mood, 72 columns.')

    const errors = Object.fromEntries(
      views.filter((v) => v.error).map((v) => [path.basename(path.dirname(v.path)), v.error])
    )
    expect(Object.keys(errors).sort()).toEqual(['broken-yaml', 'no-description', 'pdf', 'unclosed'])
    expect(errors['broken-yaml']).toMatch(/not valid YAML/)
    expect(errors['unclosed']).toMatch(/never closed/)
    expect(errors['no-description']).toMatch(/needs a `description`/)
    expect(errors['pdf']).toMatch(/another skill named "pdf" is found first/)
    expect(views.some((v) => v.path.includes('/notes/'))).toBe(false)
  })

  it('finds nothing, without failing, where there are no skill folders', async () => {
    const empty = path.join(dir, 'empty')
    expect(await scanSkills(empty, path.join(dir, 'nobody'))).toEqual({ skills: [], views: [] })
  })
})

describe('slash commands', () => {
  it('merges built-ins, command files and skills, a built-in winning a clash', async () => {
    const { skills } = await scanSkills(workspace, userDir)
    await writeFiles(userDir, { 'commands/standup.md': 'Write my standup notes\n' })
    const { commands, problems } = await loadCommands(workspace, userDir, skills)
    const views = commands.map((c) => [c.view.name, c.view.kind, c.view.description])
    expect(views).toEqual([
      ['clear', 'builtin', 'Start a fresh session in this folder'],
      ['help', 'builtin', 'List the commands you can use here'],
      ['model', 'builtin', 'Choose the model for this session'],
      ['new', 'builtin', 'Start a new session'],
      ['plan', 'builtin', 'Turn planning mode on or off (read-only tools only)'],
      ['fix-issue', 'command', 'Fix a numbered issue'],
      ['summarize', 'command', 'Summarize the project'],
      ['pdf', 'command', 'Convert $ARGUMENTS to PDF'],
      ['review', 'command', 'Review the changes in $ARGUMENTS for bugs and unclear names.'],
      ['standup', 'command', 'Write my standup notes'],
      ['commit-style', 'skill', 'How this project writes commit messages.'],
      ['release-notes', 'skill', 'Write release notes: group changes by area']
    ])
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/\/help from .*help\.md is hidden by the built-in command/)
    expect(problems[1]).toMatch(/\/pdf from .*SKILL\.md is hidden by .*pdf\.md/)
  })

  it('expands $ARGUMENTS, appends arguments to a body without it, and leaves the rest alone', async () => {
    const { skills } = await scanSkills(workspace, userDir)
    const { commands } = await loadCommands(workspace, userDir, skills)
    expect(expandCommand('/review src/greet.ts', commands)).toBe(
      'Review the changes in src/greet.ts for bugs and unclear names.\nList findings by severity.'
    )
    expect(expandCommand('/fix-issue 42', commands)).toBe('Find and fix issue #42. Run the tests.')
    expect(expandCommand('/summarize', commands)).toBe(
      '# Summarize the project\n\nWrite a one-paragraph summary.'
    )
    expect(expandCommand('/commit-style for the last change', commands)).toBe(
      'Imperative mood, 72 columns.\n\nfor the last change'
    )
    expect(expandCommand('/help', commands)).toBe('/help')
    expect(expandCommand('/nope x', commands)).toBe('/nope x')
    expect(expandCommand('/usr/bin/env is a path', commands)).toBe('/usr/bin/env is a path')
    expect(expandCommand('please /review this', commands)).toBe('please /review this')
  })
})
