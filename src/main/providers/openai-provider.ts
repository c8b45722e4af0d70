import type OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { StreamRequest, StreamResult } from './provider'
import { toOpenAIMessages } from './openai-messages'
import { readEvents, ReplyInProgress, SdkProvider } from './sdk-provider'
import { takeTextToolCalls } from './text-tool-calls'
import { invalidStream, sdkClientOptions, type StreamGuard } from './stream-guard'

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
export class OpenAIProvider extends SdkProvider<OpenAI> {
  private readonly flavour: OpenAIProviderOptions['flavour']
  private readonly promptCacheKey: boolean
  private readonly textToolCalls: boolean

  constructor(options: OpenAIProviderOptions) {
    super(
      options.id,
      async () =>
        new (await import('openai')).default({
          ...sdkClientOptions(options),
          dangerouslyAllowBrowser: false
        })
    )
    this.flavour = options.flavour
    this.promptCacheKey = options.flavour === 'openai' && options.promptCacheKey !== false
    this.textToolCalls = options.flavour === 'openai-compatible' && options.textToolCalls !== false
  }

  protected async read(
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
    const reply = new ReplyInProgress(onText)
    const chunks = await readEvents(stream, guard, 'a chunk not of the chat format', (chunk) =>
      applyChunk(chunk, reply)
    )
    if (chunks === 0 && !request.signal.aborted) throw invalidStream('no events in the reply')
    const result = reply.finish()
    if (this.textToolCalls) takeTextToolCalls(result, request)
    return result
  }

  protected models(client: OpenAI, signal?: AbortSignal): AsyncIterable<{ id: string }> {
    return client.models.list({ signal })
  }
}

function applyChunk(chunk: ChatCompletionChunk, reply: ReplyInProgress): void {
  if (chunk.usage) {
    reply.result.usage = {
      inputTokens: chunk.usage.prompt_tokens ?? 0,
      outputTokens: chunk.usage.completion_tokens ?? 0,
      cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0
    }
  }
  const choice = chunk.choices[0]
  if (!choice) return
  const { delta } = choice
  if (delta.content) reply.addText(delta.content)
  for (const piece of delta.tool_calls ?? []) {
    const call = reply.calls.get(piece.index) ?? { id: '', name: '', input: '' }
    if (piece.id) call.id = piece.id
    if (piece.function?.name) call.name += piece.function.name
    if (piece.function?.arguments) call.input += piece.function.arguments
    reply.calls.set(piece.index, call)
  }
  if (choice.finish_reason) reply.result.stopReason = normaliseStop(choice.finish_reason)
}

function normaliseStop(reason: string): string {
  if (reason === 'stop') return 'end_turn'
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_use'
  if (reason === 'length') return 'max_tokens'
  return reason
}
