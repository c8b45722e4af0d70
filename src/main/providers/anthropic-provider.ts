import type Anthropic from '@anthropic-ai/sdk'
import type {
  RawMessageStreamEvent,
  Tool as AnthropicTool
} from '@anthropic-ai/sdk/resources/messages'
import type { StreamRequest, StreamResult } from './provider'
import { toAnthropicMessages } from './anthropic-messages'
import { readEvents, ReplyInProgress, SdkProvider } from './sdk-provider'
import { droppedStream, invalidStream, sdkClientOptions, type StreamGuard } from './stream-guard'
import { anthropicThinkingParams, ThinkingCollector } from './thinking'
import { placeBreakpoints, type PromptCache } from './anthropic-cache'

export interface AnthropicProviderOptions {
  id: string
  baseURL?: string
  apiKey: string
  /** Prompt-cache breakpoints and their lifetime; `5m` unless told (see anthropic-cache.ts). */
  promptCache?: PromptCache
}

/** Anthropic's Messages API, through the official `@anthropic-ai/sdk`. */
export class AnthropicProvider extends SdkProvider<Anthropic> {
  private readonly promptCache: PromptCache

  constructor(options: AnthropicProviderOptions) {
    super(
      options.id,
      async () => new (await import('@anthropic-ai/sdk')).default(sdkClientOptions(options))
    )
    this.promptCache = options.promptCache ?? '5m'
  }

  protected async read(
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
    const reply = new ReplyInProgress(onText)
    let stopped = false
    const thinking = new ThinkingCollector(request.onThinking, request.onThinkingDelta)
    const events = await readEvents(
      stream,
      guard,
      'an event not of the Messages format',
      (event) => applyEvent(event, reply),
      (event) => {
        if (event.type === 'message_stop') stopped = true
        thinking.apply(event)
      }
    )
    if (!request.signal.aborted) {
      if (events === 0) throw invalidStream('no events in the reply')
      // Every Messages stream ends with message_stop; one without it was cut off.
      if (!stopped) throw droppedStream('the stream ended before message_stop')
    }
    const result = reply.finish()
    const thought = thinking.blocks()
    if (thought.length > 0) result.thinking = thought
    return result
  }

  protected models(client: Anthropic, signal?: AbortSignal): AsyncIterable<{ id: string }> {
    return client.models.list({}, { signal })
  }
}

function applyEvent(event: RawMessageStreamEvent, reply: ReplyInProgress): void {
  const { result, calls } = reply
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
        reply.addText(event.delta.text)
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
