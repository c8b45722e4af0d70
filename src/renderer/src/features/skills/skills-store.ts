import { call, onReconnect, subscribe } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import {
  currentSessionId,
  currentWorkspace,
  onSessionSelected,
  onWorkspaceOpened
} from '../sessions'
import type { CommandView, SkillDraftView } from '../../../../shared/skills'
import { initialSkillsState, skillsReducer, type DraftNote } from './skills-reducer'

export const useSkills = createReducerStore(skillsReducer, initialSkillsState)

/** The slash commands of `workspace` as last read; null until read for that folder. */
export function useSlashCommands(workspace: string | null): CommandView[] | null {
  return useSkills((s) => (s.state.workspace === workspace ? s.state.commands : null))
}

const dispatch = useSkills.getState().dispatch

/** Re-reads a folder's slash commands (files may have changed since the palette last opened). */
export async function loadCommands(workspace: string): Promise<void> {
  try {
    const { commands, problems } = await call('commands.list', { workspace })
    dispatch({ type: 'commands-loaded', workspace, commands, problems })
  } catch {
    // The palette then offers the MCP prompts alone; the next `/` tries again.
  }
}

export async function loadSkills(workspace: string): Promise<void> {
  try {
    const { skills, enabled } = await call('skills.list', { workspace })
    dispatch({ type: 'skills-loaded', workspace, skills, enabled })
  } catch {
    // The settings screen shows an empty list; reopening it tries again.
  }
}

export async function loadDrafts(workspace: string): Promise<void> {
  try {
    const { drafts } = await call('skillDrafts.list', { workspace })
    dispatch({ type: 'drafts-loaded', workspace, drafts })
  } catch (error) {
    dispatch({ type: 'drafts-loaded', workspace, drafts: [] })
    const text = `The skill drafts could not be read: ${errorMessage(error)}`
    dispatch({ type: 'draft-note', workspace, note: { name: null, text, error: true } })
  }
}

/**
 * Settings → Skills' Activate or Delete of a draft as it was shown (its digest); the main
 * process refuses, in a sentence, a draft that changed since or whose name is taken.
 */
export async function actOnDraft(
  workspace: string,
  draft: SkillDraftView,
  act: 'activate' | 'delete'
): Promise<void> {
  const input = { workspace, name: draft.name, digest: draft.digest }
  let note: DraftNote
  try {
    const result = await call(
      act === 'activate' ? 'skillDrafts.activate' : 'skillDrafts.delete',
      input
    )
    note = result.ok
      ? {
          name: draft.name,
          text:
            act === 'activate'
              ? `"${draft.name}" is now a learned skill (${result.path}); the model sees it from its next turn.`
              : `The draft "${draft.name}" was deleted.`,
          error: false
        }
      : { name: draft.name, text: result.error, error: true }
  } catch (error) {
    note = { name: draft.name, text: `Nothing was done: ${errorMessage(error)}`, error: true }
  }
  dispatch({ type: 'draft-note', workspace, note })
  await Promise.all([loadDrafts(workspace), loadSkills(workspace), loadCommands(workspace)])
}

export async function loadInstructions(workspace: string): Promise<void> {
  try {
    const { files } = await call('instructions.list', { workspace })
    dispatch({ type: 'instructions-loaded', workspace, files })
  } catch {
    // Shown again after the next turn.
  }
}

/** Sends the person's answer to an AskUser question; resolves with what went wrong, or null. */
export async function answerQuestion(questionId: string, answer: string): Promise<string | null> {
  try {
    const { ok } = await call('question.answer', { questionId, answer })
    // Not waiting any more (the turn stopped meanwhile): the card goes either way.
    dispatch({ type: 'question-resolved', questionId })
    return ok ? null : 'The question was no longer waiting (the turn had stopped).'
  } catch (error) {
    return `The answer could not be sent: ${errorMessage(error)}`
  }
}

async function restoreQuestions(sessionId: string): Promise<void> {
  try {
    // The questions alone: the session's transcript is the chat's to read.
    const { questions } = await call('question.pending', { sessionId })
    dispatch({ type: 'questions-restored', sessionId, questions })
  } catch {
    // The session is gone or the connection is down; its questions go with it.
  }
}

let wired = false

/**
 * Keeps the store current: questions as they are asked and resolved (and those still open when a
 * session is opened or the connection comes back), instructions re-read after every turn.
 */
export function wireSkills(): void {
  if (wired) return
  wired = true
  subscribe((event) => {
    if (event.event === 'question.asked') {
      dispatch({ type: 'question-asked', question: event.payload })
    } else if (event.event === 'question.resolved') {
      dispatch({ type: 'question-resolved', questionId: event.payload.questionId })
    } else if (event.event === 'turn.completed' || event.event === 'turn.failed') {
      const workspace = currentWorkspace()
      if (workspace) void loadInstructions(workspace)
    }
  })
  onWorkspaceOpened((workspace) => void loadInstructions(workspace))
  onSessionSelected((sessionId) => void restoreQuestions(sessionId))
  onReconnect(() => {
    const workspace = currentWorkspace()
    const selectedId = currentSessionId()
    if (workspace) void loadInstructions(workspace)
    if (selectedId) void restoreQuestions(selectedId)
  })
}
