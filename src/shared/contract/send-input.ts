import { z } from 'zod'
import { attachmentsProblem, sentAttachmentSchema } from '../attachments'
import { messageTextSchema } from './message-size'

/**
 * What `session.send` takes: the text (within the message size limit) and what is attached to
 * it, within the attachment limits. A message with attachments may have no text; one with
 * neither is refused.
 */
export const sendInputSchema = z
  .object({
    sessionId: z.string().min(1),
    text: z.union([z.literal(''), messageTextSchema]),
    attachments: z.array(sentAttachmentSchema).max(64).optional()
  })
  .strict()
  .superRefine((input, ctx) => {
    const attachments = input.attachments ?? []
    if (input.text === '' && attachments.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: 'write a message or attach something'
      })
      return
    }
    const problem = attachmentsProblem(attachments)
    if (problem) ctx.addIssue({ code: 'custom', path: ['attachments'], message: problem })
  })
