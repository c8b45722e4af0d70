import { randomUUID } from 'node:crypto'
import type { Question } from '../../../shared/skills'
import type { EventHub } from '../../events/event-hub'

export type QuestionAnswer =
  { answered: true; answer: string } | { answered: false; reason: string }

interface Waiting {
  question: Question
  settle: (answer: QuestionAnswer) => void
}

/**
 * Carries the model's questions to the window and the person's answers back, like the
 * interactive approver: announce, wait for `question.answer`, give up when the turn stops.
 */
export class QuestionBroker {
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly hub: EventHub) {}

  ask(ask: Omit<Question, 'questionId'>, signal: AbortSignal): Promise<QuestionAnswer> {
    const question: Question = { ...ask, questionId: randomUUID() }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.settle(question.questionId, { answered: false, reason: 'the turn was stopped' })
      }
      this.waiting.set(question.questionId, {
        question,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        }
      })
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      this.hub.emit('question.asked', question)
    })
  }

  /** The person's answer; false when nothing waits under that id (already answered, stopped). */
  answer(questionId: string, answer: string): boolean {
    return this.settle(questionId, { answered: true, answer })
  }

  pending(sessionId: string): Question[] {
    return [...this.waiting.values()]
      .filter((w) => w.question.sessionId === sessionId)
      .map((w) => w.question)
  }

  private settle(questionId: string, answer: QuestionAnswer): boolean {
    const waiting = this.waiting.get(questionId)
    if (!waiting) return false
    this.waiting.delete(questionId)
    waiting.settle(answer)
    this.hub.emit('question.resolved', {
      questionId,
      sessionId: waiting.question.sessionId,
      answer: answer.answered ? answer.answer : null
    })
    return true
  }
}
