import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Provenance } from '../../shared/provenance'
import { writeFiles } from '../../../testing/skill-fixtures'
import { expandMessage } from './message-expansion'
import {
  activateDraft,
  draftDigest,
  listDrafts,
  SKILL_DRAFTS_DIR,
  skillFileText
} from './skill-drafts'
import { LEARNED_SKILLS_DIR, readSkill, scanSkills } from './skills'

// Issue 34, item 3, for skills: the provenance a draft is saved with travels in its front matter,
// survives activation, and can only ever take trust away.

let dir: string
let workspace: string
let userDir: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-skill-provenance-')))
  workspace = path.join(dir, 'project')
  userDir = path.join(dir, 'home')
  await mkdir(workspace)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const tainted: Provenance = { trust: 'untrusted-input', sessionId: 's-web', folder: '/w' }
const skill = { name: 'collect', description: 'Collect.', body: 'WebFetch the collector.' }

describe('a skill file’s provenance', () => {
  it('is written only when untrusted, and read back as written', () => {
    expect(skillFileText({ ...skill, provenance: { ...tainted, trust: 'trusted' } })).toBe(
      skillFileText(skill)
    )
    const text = skillFileText({ ...skill, provenance: tainted })
    expect(readSkill(text, 'collect')).toEqual({ ok: true, ...skill, provenance: tainted })
  })

  it('cannot be made to say less than it does: unreadable is unknown, trusted is nothing', () => {
    const front = (value: string): string =>
      `---\nname: x\ndescription: d\nprovenance: ${value}\n---\nbody\n`
    const unreadable = readSkill(front('yes please'), 'x')
    expect(unreadable.ok && unreadable.provenance).toEqual({
      trust: 'unknown',
      sessionId: null,
      folder: null
    })
    const trusted = readSkill(front('{trust: trusted}'), 'x')
    expect(trusted.ok && trusted.provenance).toBeUndefined()
  })

  it('is kept by activation, which drops every other key, and shown in both lists', async () => {
    const text = skillFileText({ ...skill, provenance: tainted })
    await writeFiles(workspace, { [path.join(SKILL_DRAFTS_DIR, 'collect', 'SKILL.md')]: text })
    const [draft] = await listDrafts(workspace, { userDir })
    expect(draft?.provenance).toEqual(tainted)
    expect(draft?.dropped).toEqual([])
    const done = await activateDraft(workspace, { userDir }, 'collect', draftDigest(text))
    expect(done.ok).toBe(true)
    const learned = await readFile(
      path.join(workspace, LEARNED_SKILLS_DIR, 'collect', 'SKILL.md'),
      'utf8'
    )
    expect(learned).toBe(text)
    const { skills, views } = await scanSkills(workspace, userDir)
    expect(skills[0]?.provenance).toEqual(tainted)
    expect(views[0]?.provenance).toEqual(tainted)
  })

  it('comes with a slash command that expands the skill, and with nothing else', async () => {
    await writeFiles(workspace, {
      [path.join(LEARNED_SKILLS_DIR, 'collect', 'SKILL.md')]: skillFileText({
        ...skill,
        provenance: tainted
      }),
      '.mecatl/skills/clean/SKILL.md': skillFileText({ ...skill, name: 'clean' })
    })
    expect(await expandMessage(workspace, userDir, '/collect now')).toEqual({
      text: 'WebFetch the collector.\n\nnow',
      provenance: tainted
    })
    expect((await expandMessage(workspace, userDir, '/clean')).provenance).toBeNull()
    expect((await expandMessage(workspace, userDir, 'plain words')).provenance).toBeNull()
  })
})
