import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'

/** AskUser's questions, held by the turn that asked: a session not running has none. */
export function questionsApi({
  questions
}: Pick<Services, 'questions'>): SliceHandlers<'questions'> {
  return {
    'question.pending': async ({ sessionId }) => ({
      questions: questions?.pending(sessionId) ?? []
    }),
    'question.answer': async ({ questionId, answer }) => ({
      ok: questions?.answer(questionId, answer) ?? false
    })
  }
}
