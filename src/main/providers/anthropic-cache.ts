// Where Anthropic prompt-cache breakpoints go. The API caches the prompt prefix up to each block
// marked with `cache_control`; a later request that sends the same bytes up to such a point reads
// them from the cache at a tenth of the price. At most four marks are allowed per request.
import type {
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool
} from '@anthropic-ai/sdk/resources/messages'

/** How long cached prefixes live: Anthropic's default five minutes, one hour, or no caching. */
export type PromptCache = 'off' | '5m' | '1h'

/** The API's limit on `cache_control` marks in one request. */
export const maxBreakpoints = 4

interface CacheControl {
  type: 'ephemeral'
  ttl?: '1h'
}

/** The request parts that take breakpoints, as the provider builds them. */
export interface CacheableParts {
  tools: AnthropicTool[]
  system: TextBlockParam[]
  messages: MessageParam[]
}

/**
 * Marks the last tool, the system prompt and the last block of the two newest user messages.
 * The newest mark writes this request's whole prefix; the one before it sits where the previous
 * request's newest mark sat, so the previous prefix is read back even when a turn added more
 * blocks than the API looks back over. Tools and system come first in the prefix, so a change
 * to them (Settings, instructions) is the only thing that invalidates the rest.
 */
export function placeBreakpoints(parts: CacheableParts, cache: PromptCache): CacheableParts {
  if (cache === 'off') return parts
  const control: CacheControl =
    cache === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' }
  const tools = parts.tools.map((tool, i) =>
    i === parts.tools.length - 1 ? { ...tool, cache_control: { ...control } } : tool
  )
  const system = parts.system.map((block, i) =>
    i === parts.system.length - 1 ? { ...block, cache_control: { ...control } } : block
  )
  let left = maxBreakpoints - (tools.length > 0 ? 1 : 0) - (system.length > 0 ? 1 : 0)
  const messages = [...parts.messages]
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const message = messages[i]
    if (message?.role !== 'user') continue
    const marked = markLastBlock(message, control)
    if (marked === message) continue
    messages[i] = marked
    left--
  }
  return { tools, system, messages }
}

/** The message with `cache_control` on its last block; unchanged when it has none to mark. */
function markLastBlock(message: MessageParam, control: CacheControl): MessageParam {
  if (typeof message.content === 'string') {
    return {
      ...message,
      content: [{ type: 'text', text: message.content, cache_control: { ...control } }]
    }
  }
  // Only user messages are marked (the caller's choice); the narrowing keeps the block types.
  if (message.role !== 'user') return message
  const last = message.content.at(-1)
  // Thinking blocks cannot carry cache_control; user messages never hold them, but stay safe.
  if (!last || last.type === 'thinking' || last.type === 'redacted_thinking') return message
  return {
    role: 'user',
    content: [...message.content.slice(0, -1), { ...last, cache_control: { ...control } }]
  }
}
