import { z } from 'zod'
import { questionSchema } from '../skills'
import { sessionRef, type CallSpec } from './call-spec'

/** AskUser's questions to the person. */
export const calls = {
  /** The AskUser questions of a session still waiting for the person (opening it shows them). */
  'question.pending': {
    input: sessionRef,
    output: z.object({ questions: z.array(questionSchema) })
  },
  /** The person's answer to an AskUser question. */
  'question.answer': {
    input: z.object({ questionId: z.string().min(1), answer: z.string() }).strict(),
    output: z.object({ ok: z.boolean() })
  }
} satisfies Record<string, CallSpec>

export const events = {
  'question.asked': questionSchema,
  /** `answer` is null when the question was dropped (the turn stopped). */
  'question.resolved': z.object({
    questionId: z.string(),
    sessionId: z.string(),
    answer: z.string().nullable()
  })
} satisfies Record<string, z.ZodType>
