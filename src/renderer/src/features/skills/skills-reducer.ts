import type {
  CommandView,
  InstructionFile,
  Question,
  SkillDraftView,
  SkillView
} from '../../../../shared/skills'

/** What the window knows of a project's commands, skills and instructions, and open questions. */
export interface SkillsState {
  /** The folder `commands`, `skills` and `instructions` were read for. */
  workspace: string | null
  commands: CommandView[] | null
  /** Command name clashes and unreadable command files. */
  problems: string[]
  skills: SkillView[] | null
  skillsEnabled: boolean
  /** SkillDraft's drafts waiting for the person; null until read. */
  drafts: SkillDraftView[] | null
  /** Why the drafts could not be read, or what the last Activate or Delete answered. */
  draftNote: DraftNote | null
  instructions: InstructionFile[]
  /** AskUser questions waiting for the person, oldest first. */
  questions: Question[]
}

/** A sentence about the drafts for the person: a refusal (`error`) or what was done. */
export interface DraftNote {
  /** The draft it is about; null for the list as a whole. */
  name: string | null
  text: string
  error: boolean
}

export type SkillsAction =
  | { type: 'commands-loaded'; workspace: string; commands: CommandView[]; problems: string[] }
  | { type: 'skills-loaded'; workspace: string; skills: SkillView[]; enabled: boolean }
  | { type: 'instructions-loaded'; workspace: string; files: InstructionFile[] }
  | { type: 'drafts-loaded'; workspace: string; drafts: SkillDraftView[] }
  | { type: 'draft-note'; workspace: string; note: DraftNote | null }
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
  drafts: null,
  draftNote: null,
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
    case 'drafts-loaded': {
      const next = forFolder(state, action.workspace)
      // A note about a draft that is gone (activated, deleted) stays: it says what became of it.
      return { ...next, drafts: action.drafts }
    }
    case 'draft-note':
      return { ...forFolder(state, action.workspace), draftNote: action.note }
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
