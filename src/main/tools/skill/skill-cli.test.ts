import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../testing/cli-runner'
import { runCliInProcess } from '../../../../testing/cli-in-process'
import { writeFiles } from '../../../../testing/skill-fixtures'

// `mecatl tools --schema` prints what the model is sent, so it shows the skills the Skill tool
// names for the folder, or no Skill at all where there are none. Run as a person would.

let dir: string
let home: string

beforeAll(async () => {
  dir = await makeTempDir('skill-cli')
  home = path.join(dir, 'home')
  await mkdir(home)
}, 120_000)
afterAll(async () => rm(dir, { recursive: true, force: true }))

interface Schema {
  name: string
  description: string
}

async function schemas(workspace: string): Promise<Schema[]> {
  const result = await runCliInProcess(['tools', '--schema', '--workspace', workspace], { home })
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Schema[]
}

describe('mecatl tools --schema', () => {
  it('shows the folder’s skills in the Skill tool’s description, sorted', async () => {
    const workspace = path.join(dir, 'with-skills')
    await writeFiles(workspace, {
      '.mecatl/skills/release-notes/SKILL.md':
        '---\nname: release-notes\ndescription: Write release notes grouped by area\n---\nGroup.\n',
      '.claude/skills/commit-style/SKILL.md':
        '---\nname: commit-style\ndescription: How commits are written here\n---\nShort.\n'
    })
    await writeFiles(home, {
      'skills/standup/SKILL.md': '---\nname: standup\ndescription: My standup notes\n---\nList.\n'
    })
    const skill = (await schemas(workspace)).find((s) => s.name === 'Skill')
    expect(skill?.description).toMatch(
      /\n\nThe skills here:\n- commit-style: How commits are written here\n- release-notes: Write release notes grouped by area\n- standup: My standup notes$/
    )
    await rm(path.join(home, 'skills'), { recursive: true })
  })

  it('leaves Skill out where there is no skill, and keeps SkillDraft', async () => {
    const workspace = path.join(dir, 'bare')
    await mkdir(workspace)
    const names = (await schemas(workspace)).map((s) => s.name)
    expect(names).not.toContain('Skill')
    expect(names).toContain('SkillDraft')
  })
})
