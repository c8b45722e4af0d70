import { randomUUID } from 'node:crypto'
import type { Question } from '../../../shared/skills'
import type { EventHub } from '../../events/event-hub'
import { PendingAsks } from '../../events/pending-asks'

export type QuestionAnswer =
  { answered: true; answer: string } | { answered: false; reason: string }

/**
 * Carries the model's questions to the window and the person's answers back, like the
 * interactive approver: announce, wait for `question.answer`, give up when the turn stops.
 */
export class QuestionBroker {
  private readonly asks: PendingAsks<Question, QuestionAnswer>

  constructor(private readonly hub: EventHub) {
    this.asks = new PendingAsks((questionId, question, answer) =>
      hub.emit('question.resolved', {
        questionId,
        sessionId: question.sessionId,
        answer: answer.answered ? answer.answer : null
      })
    )
  }

  ask(ask: Omit<Question, 'questionId'>, signal: AbortSignal): Promise<QuestionAnswer> {
    const question: Question = { ...ask, questionId: randomUUID() }
    const stopped: QuestionAnswer = { answered: false, reason: 'the turn was stopped' }
    return this.asks.wait(question.questionId, question, signal, stopped, () =>
      this.hub.emit('question.asked', question)
    )
  }

  /** The person's answer; false when nothing waits under that id (already answered, stopped). */
  answer(questionId: string, answer: string): boolean {
    return this.asks.settle(questionId, { answered: true, answer })
  }

  pending(sessionId: string): Question[] {
    return this.asks.pending((question) => question.sessionId === sessionId)
  }
}
