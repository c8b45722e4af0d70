import { z } from 'zod'
import { errorOutput, folderlessReadOnlyTool, noCapabilities, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'
import type { QuestionBroker } from './question-broker'

export const ASK_USER_TOOL_NAME = 'AskUser'

const inputSchema = z
  .object({
    question: z.string().trim().min(1).describe('What to ask, in one or two sentences'),
    options: z
      .array(z.string().trim().min(1))
      .max(8)
      .optional()
      .describe('Answers to choose from; leave out for a free-text answer')
  })
  .strict()

/**
 * Asks the person a question and waits for the answer. Registered only where a person can
 * answer (a window is attached), so a headless run never offers it.
 */
export function askUserTool(broker: QuestionBroker): Tool {
  return folderlessReadOnlyTool({
    name: ASK_USER_TOOL_NAME,
    description:
      'Ask the person a question and wait for the answer: when a choice is theirs to make or the request is ambiguous. Give `options` for a choice between a few answers, or leave them out for a free answer. Do not ask what you can find out with the other tools.',
    inputSchema,
    capabilities: noCapabilities,
    // It waits for the person: never folded away.
    presentation: plainPresentation(ASK_USER_TOOL_NAME, 'nothing', null),
    call: async (input, ctx) => {
      const options = [...new Set(input.options ?? [])]
      const result = await broker.ask(
        {
          sessionId: ctx.sessionId,
          callId: ctx.callId ?? '',
          question: input.question,
          options
        },
        ctx.signal
      )
      if (!result.answered) return errorOutput(`The person did not answer: ${result.reason}.`)
      return textOutput(`The person answered: ${result.answer}`)
    }
  })
}
