import { attachedFileLine, type Attachment } from '../../shared/attachments'
import type { ChatMessage } from '../providers/provider'

/**
 * The person's message as the model gets it: the text, a line per attached file naming its path
 * for Read, and the images. Built from the transcript item alike when a turn starts and when a
 * session is reloaded, so the history (the front of the cached prompt) is the same either way.
 */
export function userChatMessage(
  text: string,
  attachments: readonly Attachment[] | undefined
): ChatMessage {
  if (!attachments || attachments.length === 0) return { role: 'user', text }
  const lines = attachments.flatMap((a) => (a.kind === 'file' ? [attachedFileLine(a.path)] : []))
  const images = attachments.flatMap((a) =>
    a.kind === 'image' ? [{ mediaType: a.mediaType, data: a.data }] : []
  )
  const full = [text, lines.join('\n')].filter((part) => part !== '').join('\n\n')
  return { role: 'user', text: full, ...(images.length > 0 ? { images } : {}) }
}

/**
 * The history as a model that does not take images may get it: each of the person's images
 * becomes a line saying it is there, so a session that changed to such a model after sending a
 * picture goes on instead of every request being refused. Unchanged (the same array) otherwise.
 */
export function historyForModel(
  history: readonly ChatMessage[],
  takesImages: boolean
): readonly ChatMessage[] {
  if (takesImages) return history
  return history.map((message) => {
    if (message.role !== 'user' || !message.images?.length) return message
    const count = message.images.length
    const note = `[${count} image${count === 1 ? '' : 's'} not shown: this model does not take images]`
    return { role: 'user', text: [message.text, note].filter((t) => t !== '').join('\n\n') }
  })
}
