import type { CommandView, InstructionFile, Question, SkillView } from '../../../../shared/skills'

/** What the window knows of a project's commands, skills and instructions, and open questions. */
export interface SkillsState {
  /** The folder `commands`, `skills` and `instructions` were read for. */
  workspace: string | null
  commands: CommandView[] | null
  /** Command name clashes and unreadable command files. */
  problems: string[]
  skills: SkillView[] | null
  skillsEnabled: boolean
  instructions: InstructionFile[]
  /** AskUser questions waiting for the person, oldest first. */
  questions: Question[]
}

export type SkillsAction =
  | { type: 'commands-loaded'; workspace: string; commands: CommandView[]; problems: string[] }
  | { type: 'skills-loaded'; workspace: string; skills: SkillView[]; enabled: boolean }
  | { type: 'instructions-loaded'; workspace: string; files: InstructionFile[] }
  | { type: 'question-asked'; question: Question }
  | { type: 'question-resolved'; questionId: string }
  /** The questions still waiting in one session, as `session.get` reports them. */
  | { type: 'questions-restored'; sessionId: string; questions: Question[] }

export const initialSkillsState: SkillsState = {
  workspace: null,
  commands: null,
  problems: [],
  skills: null,
  skillsEnabled: true,
  instructions: [],
  questions: []
}

/** Data read for another folder is dropped rather than mixed in. */
function forFolder(state: SkillsState, workspace: string): SkillsState {
  if (state.workspace === workspace) return state
  return { ...initialSkillsState, workspace, questions: state.questions }
}

export function skillsReducer(state: SkillsState, action: SkillsAction): SkillsState {
  switch (action.type) {
    case 'commands-loaded':
      return {
        ...forFolder(state, action.workspace),
        commands: action.commands,
        problems: action.problems
      }
    case 'skills-loaded':
      return {
        ...forFolder(state, action.workspace),
        skills: action.skills,
        skillsEnabled: action.enabled
      }
    case 'instructions-loaded':
      return { ...forFolder(state, action.workspace), instructions: action.files }
    case 'question-asked':
      if (state.questions.some((q) => q.questionId === action.question.questionId)) return state
      return { ...state, questions: [...state.questions, action.question] }
    case 'question-resolved':
      return {
        ...state,
        questions: state.questions.filter((q) => q.questionId !== action.questionId)
      }
    case 'questions-restored':
      return {
        ...state,
        questions: [
          ...state.questions.filter((q) => q.sessionId !== action.sessionId),
          ...action.questions
        ]
      }
  }
}

/** The question the person should answer now in a session: the oldest one. */
export function openQuestion(state: SkillsState, sessionId: string | null): Question | null {
  return state.questions.find((q) => q.sessionId === sessionId) ?? null
}
