import { describe, expect, it } from 'vitest'
import type { CommandView, Question, SkillDraftView } from '../../../../shared/skills'
import { initialSkillsState, openQuestion, skillsReducer } from './skills-reducer'
import { builtinOf, commandItems, typedBuiltin } from './slash-commands'

const question = (id: string, sessionId = 's1'): Question => ({
  questionId: id,
  sessionId,
  callId: `c-${id}`,
  question: `Q ${id}?`,
  options: []
})

describe('skills reducer', () => {
  it('shows the oldest open question of the session, and the next once it is answered', () => {
    let state = skillsReducer(initialSkillsState, {
      type: 'question-asked',
      question: question('a')
    })
    state = skillsReducer(state, { type: 'question-asked', question: question('b') })
    state = skillsReducer(state, { type: 'question-asked', question: question('x', 's2') })
    state = skillsReducer(state, { type: 'question-asked', question: question('a') })
    expect(openQuestion(state, 's1')?.questionId).toBe('a')
    state = skillsReducer(state, { type: 'question-resolved', questionId: 'a' })
    expect(openQuestion(state, 's1')?.questionId).toBe('b')
    expect(openQuestion(state, 's2')?.questionId).toBe('x')
    state = skillsReducer(state, { type: 'questions-restored', sessionId: 's1', questions: [] })
    expect(openQuestion(state, 's1')).toBeNull()
    expect(openQuestion(state, 's2')?.questionId).toBe('x')
  })

  it('drops what was read for another folder when a new one loads', () => {
    let state = skillsReducer(initialSkillsState, {
      type: 'instructions-loaded',
      workspace: '/a',
      files: [{ label: 'AGENTS.md', path: '/a/AGENTS.md', origin: 'project' }]
    })
    state = skillsReducer(state, {
      type: 'commands-loaded',
      workspace: '/b',
      commands: [],
      problems: []
    })
    expect(state.workspace).toBe('/b')
    expect(state.instructions).toEqual([])
    expect(state.commands).toEqual([])
  })

  it('keeps a draft’s note after the draft is gone, and drops both for another folder', () => {
    const draft: SkillDraftView = {
      name: 'greet',
      description: 'Greet people',
      text: '---\nname: greet\ndescription: Greet people\n---\n\nSay hello.\n',
      path: '/a/.mecatl/skill-drafts/greet/SKILL.md',
      digest: 'a'.repeat(64),
      dropped: [],
      problem: null,
      replaces: false
    }
    let state = skillsReducer(initialSkillsState, {
      type: 'drafts-loaded',
      workspace: '/a',
      drafts: [draft]
    })
    const note = { name: 'greet', text: '"greet" is now a learned skill', error: false }
    state = skillsReducer(state, { type: 'draft-note', workspace: '/a', note })
    state = skillsReducer(state, { type: 'drafts-loaded', workspace: '/a', drafts: [] })
    expect(state.drafts).toEqual([])
    expect(state.draftNote).toEqual(note)
    state = skillsReducer(state, { type: 'drafts-loaded', workspace: '/b', drafts: [] })
    expect(state.draftNote).toBeNull()
  })
})

describe('palette lines', () => {
  const commands: CommandView[] = [
    { name: 'help', description: 'List the commands', kind: 'builtin', origin: null, path: null },
    {
      name: 'review',
      description: 'Review $ARGUMENTS',
      kind: 'command',
      origin: 'project',
      path: '/p/review.md'
    },
    { name: 'tidy', description: 'Tidy', kind: 'skill', origin: 'user', path: '/u/tidy/SKILL.md' },
    {
      name: 'greet',
      description: 'Greet',
      kind: 'skill',
      origin: 'learned',
      path: '/p/.mecatl/learned-skills/greet/SKILL.md'
    }
  ]

  it('tags each command by kind and origin, and knows which ones the window runs itself', () => {
    const items = commandItems(commands)
    expect(items.map((i) => [i.command, i.tag])).toEqual([
      ['/help', 'built-in'],
      ['/review', 'command'],
      ['/tidy', 'user skill'],
      ['/greet', 'learned skill']
    ])
    expect(items.map(builtinOf)).toEqual(['help', null, null, null])
    expect(typedBuiltin('/help ', items)?.command).toBe('/help')
    expect(typedBuiltin('/review', items)).toBeNull()
    expect(typedBuiltin('/help me', items)).toBeNull()
  })
})
