import type OpenAI from 'openai'
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool
} from 'openai/resources/chat/completions'
import type {
  ChatMessage,
  ModelToolCall,
  Provider,
  StreamRequest,
  StreamResult,
  ToolResultMessage,
  UserImage
} from './provider'
import { inIndexOrder, textOfBlocks, zeroUsage } from './provider'
import { takeTextToolCalls } from './text-tool-calls'
import {
  excerpt,
  invalidStream,
  onFirstUse,
  sdkClientOptions,
  withStreamGuard,
  type StreamGuard
} from './stream-guard'

export interface OpenAIProviderOptions {
  id: string
  /** `openai` uses max_completion_tokens; compatible servers (Ollama, vLLM…) know max_tokens. */
  flavour: 'openai' | 'openai-compatible'
  baseURL?: string
  apiKey: string
  /**
   * Sends the request's `cacheKey` as `prompt_cache_key` (OpenAI's own API only: compatible
   * servers may refuse unknown fields), so one session's requests reach the same prompt cache.
   */
  promptCacheKey?: boolean
  /**
   * Takes tool calls a model wrote as text (`<tool_call>{…}</tool_call>`, fenced JSON) as calls
   * when the reply has none; for OpenAI-compatible servers only, on unless `false`.
   */
  textToolCalls?: boolean
}

/** OpenAI and every OpenAI-compatible endpoint, through the official `openai` SDK. */
export class OpenAIProvider implements Provider {
  readonly id: string
  private readonly client: () => Promise<OpenAI>
  private readonly flavour: OpenAIProviderOptions['flavour']
  private readonly promptCacheKey: boolean
  private readonly textToolCalls: boolean

  constructor(options: OpenAIProviderOptions) {
    this.id = options.id
    this.flavour = options.flavour
    this.promptCacheKey = options.flavour === 'openai' && options.promptCacheKey !== false
    this.textToolCalls = options.flavour === 'openai-compatible' && options.textToolCalls !== false
    this.client = onFirstUse(
      async () =>
        new (await import('openai')).default({
          ...sdkClientOptions(options),
          dangerouslyAllowBrowser: false
        })
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
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema }
    }))
    const limit =
      this.flavour === 'openai'
        ? { max_completion_tokens: request.maxTokens }
        : { max_tokens: request.maxTokens }
    const stream = await (
      await this.client()
    )
      .withOptions({ fetch: guard.fetch })
      .chat.completions.create(
        {
          model: request.model,
          messages: toOpenAIMessages(request.system, request.messages),
          ...(tools.length > 0 ? { tools } : {}),
          ...limit,
          ...(this.promptCacheKey && request.cacheKey
            ? { prompt_cache_key: request.cacheKey }
            : {}),
          stream: true,
          stream_options: { include_usage: true },
          ...(request.reasoning?.effort ? { reasoning_effort: request.reasoning.effort } : {})
        },
        { signal: guard.signal }
      )
    const result: StreamResult = {
      text: '',
      toolCalls: [],
      usage: { ...zeroUsage },
      stopReason: ''
    }
    const partial = new Map<number, ModelToolCall>()
    let chunks = 0
    for await (const chunk of stream) {
      chunks++
      try {
        applyChunk(chunk, result, partial, onText)
      } catch (error) {
        throw invalidStream(`a chunk not of the chat format: ${excerpt(chunk)}`, error)
      }
    }
    // The SDK ends quietly when the request is aborted, the watchdog's abort included.
    if (guard.stalled) throw guard.failure()
    if (chunks === 0 && !request.signal.aborted) throw invalidStream('no events in the reply')
    result.toolCalls = inIndexOrder(partial)
    if (this.textToolCalls) takeTextToolCalls(result, request)
    return result
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = []
    for await (const model of (await this.client()).models.list({ signal })) ids.push(model.id)
    return ids.sort()
  }
}

function applyChunk(
  chunk: ChatCompletionChunk,
  result: StreamResult,
  partial: Map<number, ModelToolCall>,
  onText: (delta: string) => void
): void {
  if (chunk.usage) {
    result.usage = {
      inputTokens: chunk.usage.prompt_tokens ?? 0,
      outputTokens: chunk.usage.completion_tokens ?? 0,
      cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0
    }
  }
  const choice = chunk.choices[0]
  if (!choice) return
  const { delta } = choice
  if (delta.content) {
    result.text += delta.content
    onText(delta.content)
  }
  for (const piece of delta.tool_calls ?? []) {
    const call = partial.get(piece.index) ?? { id: '', name: '', input: '' }
    if (piece.id) call.id = piece.id
    if (piece.function?.name) call.name += piece.function.name
    if (piece.function?.arguments) call.input += piece.function.arguments
    partial.set(piece.index, call)
  }
  if (choice.finish_reason) result.stopReason = normaliseStop(choice.finish_reason)
}

function normaliseStop(reason: string): string {
  if (reason === 'stop') return 'end_turn'
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_use'
  if (reason === 'length') return 'max_tokens'
  return reason
}

function toOpenAIMessages(
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
