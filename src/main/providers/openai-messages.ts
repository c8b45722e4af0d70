import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam
} from 'openai/resources/chat/completions'
import { textOfBlocks, type ChatMessage, type ToolResultMessage, type UserImage } from './provider'

/** The conversation in the chat format: the system prompt first, each tool result a message. */
export function toOpenAIMessages(
  system: string,
  messages: readonly ChatMessage[]
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }]
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: userContent(message.text, message.images ?? []) })
    } else if (message.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: message.text || null,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.input }
              }))
            }
          : {})
      })
    } else {
      for (const result of message.results) {
        out.push({
          role: 'tool',
          tool_call_id: result.callId,
          content: textOfBlocks(result.content)
        })
      }
      const images = imagesOf(message.results)
      if (images.length > 0) out.push({ role: 'user', content: images })
    }
  }
  return out
}

/** Plain text, or with the person's images the text part then one `image_url` data URL each. */
function userContent(
  text: string,
  images: readonly UserImage[]
): string | ChatCompletionContentPart[] {
  if (images.length === 0) return text
  const parts: ChatCompletionContentPart[] = text === '' ? [] : [{ type: 'text', text }]
  for (const image of images) {
    parts.push({
      type: 'image_url',
      image_url: { url: `data:${image.mediaType};base64,${image.data}` }
    })
  }
  return parts
}

/**
 * Tool messages can only hold text, so images from tool results (Read of a picture) follow them
 * in one user message, each introduced by the call it answers.
 */
function imagesOf(results: readonly ToolResultMessage[]): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = []
  for (const result of results) {
    for (const block of result.content) {
      if (block.type !== 'image') continue
      parts.push({ type: 'text', text: `The image from tool call ${result.callId}:` })
      parts.push({
        type: 'image_url',
        image_url: { url: `data:${block.mediaType};base64,${block.data}` }
      })
    }
  }
  return parts
}
