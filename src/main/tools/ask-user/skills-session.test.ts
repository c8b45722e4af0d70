import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestToolResults, type Step } from '../../../../testing/fake-model-server'
import type { Question } from '../../../shared/skills'
import type { CoreOptions } from '../../core'
import { writeFiles } from '../../../../testing/skill-fixtures'
import { startCoreHarness, type CoreHarness as Harness } from '../../../../testing/core-harness'

// A whole session over the real core and a scripted model: AskUser waiting for the person,
// the Skill tool, instruction files and command expansion, as the window uses them.

function harness(script: Step[], options: Partial<CoreOptions> = {}): Promise<Harness> {
  return startCoreHarness({
    name: 'skill-session',
    script,
    permissions: 'ask',
    userDir: true,
    core: { interactive: true, ...options }
  })
}

async function until<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('AskUser', () => {
  it('waits for the person and continues the turn with the answer', async () => {
    const h = await harness([
      {
        toolCalls: [
          { name: 'AskUser', input: { question: 'Which greeting?', options: ['Hi', 'Hello'] } }
        ]
      },
      (req) => ({ text: `Going with it. ${latestToolResults(req)[0]?.content}` })
    ])
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'greet me' })
    const asked = await until(
      () => h.events.find((e) => e.event === 'question.asked')?.payload as Question | undefined
    )
    expect(asked).toMatchObject({ question: 'Which greeting?', options: ['Hi', 'Hello'] })
    const waiting = await h.client.call('session.get', { sessionId: session.id })
    expect(waiting.pendingQuestions.map((q) => q.questionId)).toEqual([asked.questionId])
    // What a window opening the session asks for: the questions alone.
    const pending = await h.client.call('question.pending', { sessionId: session.id })
    expect(pending.questions).toEqual(waiting.pendingQuestions)

    expect(
      await h.client.call('question.answer', { questionId: asked.questionId, answer: 'Hello' })
    ).toEqual({ ok: true })
    await h.core.sessions.idle(session.id)
    const { transcript, pendingQuestions } = await h.client.call('session.get', {
      sessionId: session.id
    })
    expect(pendingQuestions).toEqual([])
    expect(await h.client.call('question.pending', { sessionId: session.id })).toEqual({
      questions: []
    })
    const reply = transcript.filter((i) => i.kind === 'assistant').at(-1)
    expect(reply?.kind === 'assistant' && reply.text).toBe(
      'Going with it. The person answered: Hello'
    )
    // A second answer to the same question finds nothing waiting.
    expect(
      await h.client.call('question.answer', { questionId: asked.questionId, answer: 'Hi' })
    ).toEqual({ ok: false })
  })

  it('is not offered where nobody can answer', async () => {
    const h = await harness([{ text: 'ok' }], { interactive: false })
    expect(h.core.catalog.get('AskUser')).toBeUndefined()
    expect(h.core.catalog.get('Skill')).toBeDefined()
  })
})

describe('skills in a session', () => {
  it('lists, loads a user skill, reads its own file through the jail and records the load', async () => {
    const h = await harness([
      { toolCalls: [{ name: 'Skill', input: {} }] },
      { toolCalls: [{ name: 'Skill', input: { name: 'deploy' } }] },
      (req) => {
        const loaded = latestToolResults(req)[0]?.content ?? ''
        const folder = /folder="([^"]+)"/.exec(loaded)?.[1] ?? ''
        return { toolCalls: [{ name: 'Read', input: { path: path.join(folder, 'steps.md') } }] }
      },
      (req) => ({ text: `Read: ${latestToolResults(req)[0]?.content}` })
    ])
    await writeFiles(h.userDir, {
      'skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Ship it\n---\nFollow steps.md.\n',
      'skills/deploy/steps.md': 'step one\n'
    })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'deploy' })
    await h.core.sessions.idle(session.id)
    const results = h.fake
      .chatRequests()
      .slice(1)
      .map((req) => latestToolResults(req)[0])
    expect(results[0]?.content).toBe('1 skill (load one with {"name": "…"}):\n- deploy: Ship it')
    expect(results[1]?.content).toContain('Follow steps.md.')
    expect(results[2]?.isError).toBe(false)
    expect(results[2]?.content).toContain('step one')
    expect(h.core.sessions.get(session.id).skills.names()).toEqual(['deploy'])
    // Reading is all the exception allows.
    const write = await h.core.sessions
      .get(session.id)
      .jail.resolve(path.join(h.userDir, 'skills/deploy/steps.md'), 'write')
    expect(write.ok).toBe(false)
  })

  it('--no-skills removes the Skill tool; skills stay commands', async () => {
    const h = await harness([{ text: 'ok' }], { skills: false })
    expect(h.core.catalog.get('Skill')).toBeUndefined()
    await writeFiles(h.workspace, {
      '.mecatl/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Ship it\n---\nShip.\n'
    })
    const { commands } = await h.client.call('commands.list', { workspace: h.workspace })
    expect(commands.find((c) => c.name === 'deploy')?.kind).toBe('skill')
    const { enabled } = await h.client.call('skills.list', { workspace: h.workspace })
    expect(enabled).toBe(false)
  })
})

describe('instructions and commands', () => {
  it('puts AGENTS.md and CLAUDE.md in the system prompt and re-reads them when they change', async () => {
    const h = await harness([{ text: 'one' }, { text: 'two' }])
    await writeFiles(h.workspace, { 'AGENTS.md': 'Use tabs.\n', 'CLAUDE.md': 'Be brief.\n' })
    await writeFiles(h.userDir, { 'AGENTS.md': 'Call me Sam.\n' })
    const { files } = await h.client.call('instructions.list', { workspace: h.workspace })
    expect(files.map((f) => f.label)).toEqual(['~/AGENTS.md', 'AGENTS.md', 'CLAUDE.md'])
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: 'hi' })
    await h.core.sessions.idle(session.id)
    await writeFiles(h.workspace, { 'AGENTS.md': 'Use spaces.\n' })
    await h.client.call('session.send', { sessionId: session.id, text: 'again' })
    await h.core.sessions.idle(session.id)
    const [first, second] = h.fake.chatRequests()
    expect(first?.system).toContain('Use tabs.')
    expect(first?.system).toContain('Be brief.')
    expect(first?.system).toContain('Call me Sam.')
    expect(second?.system).toContain('Use spaces.')
    expect(second?.system).not.toContain('Use tabs.')
  })

  it('expands a project command with its arguments before the message is sent', async () => {
    const h = await harness([{ text: 'done' }])
    await writeFiles(h.workspace, { '.claude/commands/review.md': 'Review $ARGUMENTS closely.\n' })
    const session = await h.client.call('session.create', { workspace: h.workspace })
    await h.client.call('session.send', { sessionId: session.id, text: '/review src/a.ts' })
    await h.core.sessions.idle(session.id)
    const { transcript } = await h.client.call('session.get', { sessionId: session.id })
    expect(transcript[0]).toMatchObject({ kind: 'user', text: 'Review src/a.ts closely.' })
  })
})
