import type {
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam
} from '@anthropic-ai/sdk/resources/messages'
import type { ChatMessage, ToolResultMessage, UserImage } from './provider'
import { anthropicThinkingBlocks } from './thinking'

/**
 * The conversation in the Messages API's terms. Anthropic wants strictly alternating roles, so
 * tool results fold into the next user turn.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = []
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    const last = out.at(-1)
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks)
    else out.push({ role, content: blocks })
  }
  for (const message of messages) {
    if (message.role === 'user') {
      push('user', userBlocks(message.text, message.images ?? []))
    } else if (message.role === 'assistant') {
      const blocks: ContentBlockParam[] = anthropicThinkingBlocks(message.thinking)
      if (message.text) blocks.push({ type: 'text', text: message.text })
      for (const call of message.toolCalls) {
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: parseOrEmpty(call.input)
        })
      }
      if (blocks.length === 0) blocks.push({ type: 'text', text: '(no reply)' })
      push('assistant', blocks)
    } else {
      push('user', message.results.map(toToolResult))
    }
  }
  return out
}

/** The person's images go before the text, as Anthropic advises; an empty text is left out. */
function userBlocks(text: string, images: readonly UserImage[]): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = images.map((image) => ({
    type: 'image',
    source: { type: 'base64', media_type: image.mediaType as 'image/png', data: image.data }
  }))
  if (text !== '' || blocks.length === 0) blocks.push({ type: 'text', text })
  return blocks
}

function toToolResult(result: ToolResultMessage): ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: result.callId,
    is_error: result.isError,
    content: result.content.map((block) =>
      block.type === 'text'
        ? { type: 'text' as const, text: block.text }
        : {
            type: 'image' as const,
            source: {
              type: 'base64' as const,
              media_type: block.mediaType as 'image/png',
              data: block.data
            }
          }
    )
  }
}

/** The model's arguments were not valid JSON: the tool result says so; the echo must still parse. */
function parseOrEmpty(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw || '{}')
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
