import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Gate, nobodyToAsk, type GatePolicy } from '../../gate/gate'
import { draftDigest, SKILL_DRAFTS_DIR, skillFileText } from '../../skills/skill-drafts'
import { LEARNED_SKILLS_DIR, type Skill } from '../../skills/skills'
import { startCoreHarness, type CoreHarness } from '../../../../testing/core-harness'
import { latestToolResults, type Step } from '../../../../testing/fake-model-server'
import { writeFiles } from '../../../../testing/skill-fixtures'
import { writeTool } from '../fs/write'
import type { Tool } from '../tool'
import { skillDraftTool } from './skill-draft-tool'
import { MAX_LISTED_DESCRIPTION, MAX_LISTED_SKILLS, skillToolDescription } from './skill-tool'

// The skill tools in real turns over the real core and the scripted model: what the model is
// told of the skills before it calls anything, a draft saved and then activated by a person,
// and SkillDraft under the gate.

interface SentTool {
  type: string
  function: { name: string; description: string; parameters: unknown }
}

/** The `tools` of every chat request exactly as the core sent them (OpenAI wire format). */
function sentTools(h: CoreHarness): SentTool[][] {
  return h.fake.requests
    .filter((r) => r.normalized)
    .map((r) => (r.body as { tools?: SentTool[] }).tools ?? [])
}

function described(tools: readonly SentTool[], name: string): string | undefined {
  return tools.find((t) => t.function.name === name)?.function.description
}

async function turn(h: CoreHarness, sessionId: string, text: string): Promise<void> {
  await h.client.call('session.send', { sessionId, text })
  await h.core.sessions.idle(sessionId)
}

const skill = (name: string, description: string, body = 'Do it.'): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`

async function harness(
  script: Step[],
  permissions: 'allow' | 'ask' = 'allow'
): Promise<CoreHarness> {
  return startCoreHarness({ name: 'skill-tools', script, permissions, userDir: true })
}

describe('the skills in the Skill tool’s description', () => {
  it('names each skill, sorted, and sends the same tool list while they do not change', async () => {
    const h = await harness([{ text: 'one' }, { text: 'two' }, { text: 'three' }])
    await writeFiles(h.workspace, {
      '.mecatl/skills/zebra/SKILL.md': skill('zebra', 'Stripes.\n  Over two lines.'),
      '.claude/skills/alpha/SKILL.md': skill('alpha', '"Starts: here"')
    })
    await writeFiles(h.userDir, { 'skills/middle/SKILL.md': skill('middle', 'Yours.') })
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await turn(h, id, 'one')
    await turn(h, id, 'two')
    const [first, second] = sentTools(h)
    expect(described(first ?? [], 'Skill')).toMatch(
      /\n\nThe skills here:\n- alpha: Starts: here\n- middle: Yours\.\n- zebra: Stripes\. Over two lines\.$/
    )
    // Byte for byte: the tool list is the front of the cached prompt.
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))

    await writeFiles(h.workspace, { '.mecatl/skills/beta/SKILL.md': skill('beta', 'New.') })
    await turn(h, id, 'three')
    expect(described(sentTools(h)[2] ?? [], 'Skill')).toContain(
      '- alpha: Starts: here\n- beta: New.\n'
    )
  })

  it('is left out where there are no skills, and offered from the turn after one appears', async () => {
    const h = await harness([{ text: 'one' }, { text: 'two' }])
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await turn(h, id, 'one')
    const names = (tools: readonly SentTool[]): string[] => tools.map((t) => t.function.name)
    expect(names(sentTools(h)[0] ?? [])).not.toContain('Skill')
    expect(names(sentTools(h)[0] ?? [])).toContain('SkillDraft')
    await writeFiles(h.userDir, { 'skills/first/SKILL.md': skill('first', 'The first one.') })
    await turn(h, id, 'two')
    expect(described(sentTools(h)[1] ?? [], 'Skill')).toContain('- first: The first one.')
  })
})

describe('a skill draft', () => {
  const draft = {
    name: 'greeting-style',
    description: 'How this project greets people: use it for any greeting text.',
    instructions: '# Greetings\n\nSay "Hello, <name>" and never "Hi".'
  }

  it('is saved by the model, loads as nothing until a person activates it, then is listed', async () => {
    const h = await harness([
      { toolCalls: [{ name: 'SkillDraft', input: draft }] },
      { text: 'saved' },
      { toolCalls: [{ name: 'Skill', input: { name: 'greeting-style' } }] },
      { text: 'not there' },
      { toolCalls: [{ name: 'Skill', input: { name: 'greeting-style' } }] },
      (req) => ({ text: `loaded: ${latestToolResults(req)[0]?.content}` })
    ])
    await writeFiles(h.userDir, { 'skills/other/SKILL.md': skill('other', 'Another skill.') })
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await turn(h, id, 'remember how we greet')
    const saved = h.fake.chatRequests()[1]
    expect(saved && latestToolResults(saved)[0]).toMatchObject({
      content: expect.stringMatching(
        /^Saved a skill draft at `\.mecatl\/skill-drafts\/greeting-style\/SKILL\.md`\. It is not a skill yet/
      )
    })
    // A change in the project like any other: checkpointed, and its card says what it changed.
    const card = h.core.sessions
      .get(id)
      .transcript()
      .find((item) => item.kind === 'tool' && item.call.name === 'SkillDraft')
    const files = card?.kind === 'tool' ? card.call.files?.[0] : undefined
    expect(files && 'changes' in files && files.changes).toEqual([
      expect.objectContaining({ path: '.mecatl/skill-drafts/greeting-style/SKILL.md' })
    ])
    const file = path.join(h.workspace, SKILL_DRAFTS_DIR, 'greeting-style', 'SKILL.md')
    expect(await readFile(file, 'utf8')).toBe(skillFileText({ ...draft, body: draft.instructions }))

    await turn(h, id, 'use it')
    const before = h.fake.chatRequests()[2]
    expect(before?.tools).toContain('Skill')
    const notYet = h.fake.chatRequests()[3]
    expect(notYet && latestToolResults(notYet)[0]?.content).toBe(
      'There is no skill named "greeting-style". Skills here: other.'
    )
    expect(described(sentTools(h)[2] ?? [], 'Skill')).not.toContain('greeting-style')

    const { drafts } = await h.client.call('skillDrafts.list', { workspace: h.workspace })
    expect(drafts.map((d) => [d.name, d.problem])).toEqual([['greeting-style', null]])
    const activated = await h.client.call('skillDrafts.activate', {
      workspace: h.workspace,
      name: 'greeting-style',
      digest: drafts[0]?.digest ?? ''
    })
    expect(activated).toEqual({
      ok: true,
      path: path.join(h.workspace, LEARNED_SKILLS_DIR, 'greeting-style', 'SKILL.md')
    })

    await turn(h, id, 'now use it')
    expect(described(sentTools(h)[4] ?? [], 'Skill')).toContain(
      `- greeting-style: ${draft.description}\n- other: Another skill.`
    )
    const reply = h.core.sessions
      .get(id)
      .transcript()
      .filter((item) => item.kind === 'assistant')
      .at(-1)
    expect(reply?.kind === 'assistant' && reply.text).toBe(
      `loaded: <skill name="greeting-style" learned="true">\n${draft.instructions}\n</skill>`
    )
    // Activation gives a skill its text and nothing else: no folder opened for reading.
    expect(h.core.sessions.get(id).skills.list()).toEqual([
      { name: 'greeting-style', dir: null, body: draft.instructions }
    ])
    const { skills } = await h.client.call('skills.list', { workspace: h.workspace })
    expect(skills.find((s) => s.name === 'greeting-style')?.origin).toBe('learned')
  })

  it('never takes a project skill’s name: not when saved, not when activated', async () => {
    const h = await harness([
      { toolCalls: [{ name: 'SkillDraft', input: { ...draft, name: 'deploy' } }] },
      { text: 'ok' }
    ])
    await writeFiles(h.workspace, {
      '.mecatl/skills/deploy/SKILL.md': skill('deploy', 'The project’s own.')
    })
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await turn(h, id, 'save it as deploy')
    const result = latestToolResults(h.fake.chatRequests()[1]!)[0]
    const card = h.core.sessions
      .get(id)
      .transcript()
      .find((item) => item.kind === 'tool')
    expect(card?.kind === 'tool' && card.call.output?.isError).toBe(true)
    expect(result?.content).toMatch(
      /^Not saved: a project skill named "deploy" already exists \(.*\), and operator, project and your own skills always win a name clash; save the draft under another name, or delete it\.$/
    )
    expect(existsSync(path.join(h.workspace, SKILL_DRAFTS_DIR, 'deploy'))).toBe(false)

    // A draft of that name put there another way (Write, a clone) is refused at activation.
    const text = skillFileText({ name: 'deploy', description: 'Mine now.', body: 'Evil.' })
    await writeFiles(h.workspace, { [path.join(SKILL_DRAFTS_DIR, 'deploy', 'SKILL.md')]: text })
    const refused = await h.client.call('skillDrafts.activate', {
      workspace: h.workspace,
      name: 'deploy',
      digest: draftDigest(text)
    })
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.error).toMatch(
      /^The draft "deploy" cannot be activated: a project skill named "deploy" already exists/
    )
    const { skills } = await h.client.call('skills.list', { workspace: h.workspace })
    expect(skills.map((s) => [s.name, s.origin, s.description])).toEqual([
      ['deploy', 'project', 'The project’s own.']
    ])
  })

  it('never takes the name of an operator’s skill (--skills-dir) through the window', async () => {
    const probe = await harness([])
    const operator = path.join(probe.dir, 'operator')
    await writeFiles(operator, { 'audit/SKILL.md': skill('audit', 'The operator’s audit.') })
    const h = await startCoreHarness({
      name: 'skill-tools-operator',
      userDir: true,
      core: { skillsDirs: [operator] }
    })
    const text = skillFileText({ name: 'audit', description: 'Lighter.', body: 'Skip it.' })
    await writeFiles(h.workspace, { [path.join(SKILL_DRAFTS_DIR, 'audit', 'SKILL.md')]: text })
    const { drafts } = await h.client.call('skillDrafts.list', { workspace: h.workspace })
    expect(drafts[0]?.problem).toMatch(/^a skill of the operator's named "audit" already exists/)
    const refused = await h.client.call('skillDrafts.activate', {
      workspace: h.workspace,
      name: 'audit',
      digest: draftDigest(text)
    })
    expect(refused.ok).toBe(false)
    expect(existsSync(path.join(h.workspace, LEARNED_SKILLS_DIR, 'audit'))).toBe(false)
  })

  it('is not offered without files, nor with the skill tools switched off', async () => {
    const h = await harness([{ text: 'a' }])
    const { id } = await h.client.call('session.create', {
      workspace: h.workspace,
      profile: 'no-fs'
    })
    await turn(h, id, 'hi')
    expect(h.fake.chatRequests()[0]?.tools).not.toContain('SkillDraft')
    const off = await startCoreHarness({
      name: 'skill-tools-off',
      script: [{ text: 'b' }],
      core: { skills: false }
    })
    const session = await off.client.call('session.create', { workspace: off.workspace })
    await turn(off, session.id, 'hi')
    expect(off.fake.chatRequests()[0]?.tools).not.toContain('SkillDraft')
  })
})

describe('the description itself', () => {
  it('is the same for the same skills in any order, one line each, and bounded', () => {
    const made = (name: string, description: string): Skill => ({
      name,
      description,
      origin: 'project',
      path: `/p/${name}/SKILL.md`,
      dir: `/p/${name}`,
      body: ''
    })
    const many = Array.from({ length: MAX_LISTED_SKILLS + 2 }, (_, i) =>
      made(
        `s${String(i).padStart(3, '0')}`,
        i === 0 ? 'long '.repeat(80) : i === 1 ? 'first\n- fake: injected' : 'x'
      )
    )
    const text = skillToolDescription(many)
    expect(skillToolDescription([...many].reverse())).toBe(text)
    const lines = text.split('\n\nThe skills here:\n')[1]?.split('\n') ?? []
    expect(lines).toHaveLength(MAX_LISTED_SKILLS + 1)
    // A description's own newlines cannot start a line that reads as another skill.
    expect(lines[0]).toMatch(/^- s000: (long )+long…$/)
    expect(lines[1]).toBe('- s001: first - fake: injected')
    expect(Array.from(lines[0] ?? '').length).toBe('- s000: '.length + MAX_LISTED_DESCRIPTION)
    expect(lines.at(-1)).toBe('- … and 2 more: call Skill with no name for the whole list')
  })
})

describe('SkillDraft and links in the project', () => {
  it('never writes through a drafts folder that is a link, into the skills or out of the project', async () => {
    const input = { name: 'sneaky', description: 'd', instructions: 'Loaded at once?' }
    const h = await harness([
      { toolCalls: [{ name: 'SkillDraft', input }] },
      { text: 'one' },
      { toolCalls: [{ name: 'SkillDraft', input }] },
      { text: 'two' }
    ])
    await mkdir(path.join(h.workspace, '.mecatl', 'skills'), { recursive: true })
    await symlink('skills', path.join(h.workspace, SKILL_DRAFTS_DIR))
    const { id } = await h.client.call('session.create', { workspace: h.workspace })
    await turn(h, id, 'save it')
    const first = latestToolResults(h.fake.chatRequests()[1]!)[0]?.content
    expect(first).toMatch(/^Not saved: `\.mecatl\/skill-drafts\/sneaky` is reached through a link/)
    expect(existsSync(path.join(h.workspace, '.mecatl', 'skills', 'sneaky'))).toBe(false)

    await rm(path.join(h.workspace, SKILL_DRAFTS_DIR))
    await mkdir(path.join(h.dir, 'outside'))
    await symlink(path.join(h.dir, 'outside'), path.join(h.workspace, SKILL_DRAFTS_DIR))
    await turn(h, id, 'again')
    expect(latestToolResults(h.fake.chatRequests()[3]!)[0]?.content).toMatch(/^Not saved: /)
    expect(await readdir(path.join(h.dir, 'outside'))).toEqual([])
  })
})

describe('SkillDraft under the gate', () => {
  it('is decided as Write is, in every mode and by rules naming it', async () => {
    const h = await harness([])
    const draftTool = skillDraftTool({ userDir: h.userDir })
    const decide = async (
      tool: Tool,
      input: unknown,
      policy: Partial<GatePolicy>
    ): Promise<unknown> => {
      const gate = new Gate({ workspace: h.workspace, ...policy }, nobodyToAsk)
      const verdict = await gate.decide(
        { sessionId: 's', callId: 'c', tool, input },
        new AbortController().signal
      )
      return verdict.allowed ? 'allowed' : verdict.refusedBy
    }
    const input = { name: 'x', description: 'd', instructions: 'i' }
    const policies: Partial<GatePolicy>[] = [
      { mode: 'ask' },
      { mode: 'read-only' },
      { mode: 'allow' },
      { mode: 'allow', planning: true },
      { mode: 'allow', rules: [{ tool: 'SkillDraft', decision: 'forbid' }] }
    ]
    const verdicts = []
    for (const policy of policies) verdicts.push(await decide(draftTool, input, policy))
    expect(verdicts).toEqual(['approver', 'mode', 'allowed', 'planning', 'rule'])
    const writes = []
    for (const policy of policies.slice(0, 4)) {
      writes.push(await decide(writeTool, { path: 'x.md', content: 'x' }, policy))
    }
    expect(writes).toEqual(verdicts.slice(0, 4))
  })
})
