import type Anthropic from '@anthropic-ai/sdk'
import type {
  ContentBlockParam,
  MessageParam,
  RawMessageStreamEvent,
  Tool as AnthropicTool,
  ToolResultBlockParam
} from '@anthropic-ai/sdk/resources/messages'
import type {
  ChatMessage,
  ModelToolCall,
  Provider,
  StreamRequest,
  StreamResult,
  ToolResultMessage,
  UserImage
} from './provider'
import { inIndexOrder, zeroUsage } from './provider'
import {
  droppedStream,
  excerpt,
  invalidStream,
  onFirstUse,
  sdkClientOptions,
  withStreamGuard,
  type StreamGuard
} from './stream-guard'
import { anthropicThinkingBlocks, anthropicThinkingParams, ThinkingCollector } from './thinking'
import { placeBreakpoints, type PromptCache } from './anthropic-cache'

export interface AnthropicProviderOptions {
  id: string
  baseURL?: string
  apiKey: string
  /** Prompt-cache breakpoints and their lifetime; `5m` unless told (see anthropic-cache.ts). */
  promptCache?: PromptCache
}

/** Anthropic's Messages API, through the official `@anthropic-ai/sdk`. */
export class AnthropicProvider implements Provider {
  readonly id: string
  private readonly client: () => Promise<Anthropic>
  private readonly promptCache: PromptCache

  constructor(options: AnthropicProviderOptions) {
    this.id = options.id
    this.promptCache = options.promptCache ?? '5m'
    this.client = onFirstUse(
      async () => new (await import('@anthropic-ai/sdk')).default(sdkClientOptions(options))
    )
  }

  stream(request: StreamRequest, onText: (delta: string) => void): Promise<StreamResult> {
    return withStreamGuard(request, (guard) => this.read(request, onText, guard))
  }

  private async read(
    request: StreamRequest,
    onText: (delta: string) => void,
    guard: StreamGuard
  ): Promise<StreamResult> {
    const { tools, system, messages } = placeBreakpoints(
      {
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.inputSchema as AnthropicTool['input_schema']
        })),
        system: request.system === '' ? [] : [{ type: 'text', text: request.system }],
        messages: toAnthropicMessages(request.messages)
      },
      this.promptCache
    )
    const stream = await (await this.client()).withOptions({ fetch: guard.fetch }).messages.create(
      {
        model: request.model,
        ...anthropicThinkingParams(request),
        ...(system.length > 0 ? { system } : {}),
        messages,
        ...(tools.length > 0 ? { tools } : {}),
        stream: true
      },
      { signal: guard.signal }
    )
    const result: StreamResult = {
      text: '',
      toolCalls: [],
      usage: { ...zeroUsage },
      stopReason: ''
    }
    const calls = new Map<number, ModelToolCall>()
    let events = 0
    let stopped = false
    const thinking = new ThinkingCollector(request.onThinking, request.onThinkingDelta)
    for await (const event of stream) {
      events++
      if (event.type === 'message_stop') stopped = true
      thinking.apply(event)
      try {
        applyEvent(event, result, calls, onText)
      } catch (error) {
        throw invalidStream(`an event not of the Messages format: ${excerpt(event)}`, error)
      }
    }
    // The SDK ends quietly when the request is aborted, the watchdog's abort included.
    if (guard.stalled) throw guard.failure()
    if (!request.signal.aborted) {
      if (events === 0) throw invalidStream('no events in the reply')
      // Every Messages stream ends with message_stop; one without it was cut off.
      if (!stopped) throw droppedStream('the stream ended before message_stop')
    }
    result.toolCalls = inIndexOrder(calls)
    const thought = thinking.blocks()
    if (thought.length > 0) result.thinking = thought
    return result
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = []
    for await (const model of (await this.client()).models.list({}, { signal })) ids.push(model.id)
    return ids.sort()
  }
}

function applyEvent(
  event: RawMessageStreamEvent,
  result: StreamResult,
  calls: Map<number, ModelToolCall>,
  onText: (delta: string) => void
): void {
  switch (event.type) {
    case 'message_start': {
      // Anthropic counts cached prompt tokens apart from input_tokens; OpenAI counts them within
      // prompt_tokens. "in" means the whole prompt for both, "cached" the part read from cache.
      const usage = event.message.usage
      const cached = usage.cache_read_input_tokens ?? 0
      result.usage.inputTokens =
        usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0)
      result.usage.cachedTokens = cached
      // Written to the cache: priced apart (1.25 times input for five minutes, twice for an hour).
      if (usage.cache_creation_input_tokens) {
        result.usage.cacheWriteTokens = usage.cache_creation_input_tokens
      }
      result.usage.outputTokens = usage.output_tokens
      break
    }
    case 'content_block_start':
      if (event.content_block.type === 'tool_use') {
        calls.set(event.index, {
          id: event.content_block.id,
          name: event.content_block.name,
          input: ''
        })
      }
      break
    case 'content_block_delta':
      if (event.delta.type === 'text_delta') {
        result.text += event.delta.text
        onText(event.delta.text)
      } else if (event.delta.type === 'input_json_delta') {
        const call = calls.get(event.index)
        if (call) call.input += event.delta.partial_json
      }
      break
    case 'message_delta':
      if (event.delta.stop_reason) result.stopReason = event.delta.stop_reason
      result.usage.outputTokens = event.usage.output_tokens
      break
    default:
      break
  }
}

/** Anthropic wants strictly alternating roles, so tool results fold into the next user turn. */
function toAnthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
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
