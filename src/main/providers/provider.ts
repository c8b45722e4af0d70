import type { ContentBlock, Usage } from '../../shared/domain'
import type { ModelReasoning, ThinkingBlock } from '../../shared/reasoning'

/**
 * A tool as a provider sends it to the model: the catalog's tools, as the wire sees them. Declared
 * here, below the tools, so a provider needs nothing of the catalog.
 */
export interface ModelToolSchema {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

/** A tool call as the model streamed it; `input` is the raw JSON text of its arguments. */
export interface ModelToolCall {
  id: string
  name: string
  input: string
}

export interface ToolResultMessage {
  callId: string
  name: string
  content: ContentBlock[]
  isError: boolean
}

/** An image the person sent; `data` is the transcript's own base64 string, not a copy. */
export interface UserImage {
  mediaType: string
  data: string
}

/** The conversation in a provider-neutral form; each provider maps it to its own wire format. */
export type ChatMessage =
  | {
      role: 'user'
      text: string
      /** Pictures sent with the message, for a model that takes images (see agent/user-message). */
      images?: readonly UserImage[]
    }
  | {
      role: 'assistant'
      text: string
      toolCalls: ModelToolCall[]
      /** The reply's thinking, sent back unchanged where the API requires it (Anthropic). */
      thinking?: ThinkingBlock[]
    }
  | { role: 'tool'; results: ToolResultMessage[] }

export interface StreamRequest {
  model: string
  system: string
  messages: readonly ChatMessage[]
  tools: readonly ModelToolSchema[]
  maxTokens: number
  signal: AbortSignal
  /** How long the provider may send nothing (no byte) before the reply is given up. */
  idleTimeoutMs?: number
  /** Thinking budget or reasoning effort for this model; absent: the model does not think. */
  reasoning?: ModelReasoning
  /** Told the reply's thinking so far each time a block of it is complete. */
  onThinking?: (blocks: readonly ThinkingBlock[]) => void
  /** Told each piece of thinking as it streams: the place of its block and the new text. */
  onThinkingDelta?: (place: number, delta: string) => void
  /** Names the conversation for providers that route by it to a warm prompt cache (OpenAI). */
  cacheKey?: string
  /**
   * Told as each attempt's request is handed to the network, so work that must not delay the
   * request starts while the model answers (a turn's sandbox check, see turn-loop.ts).
   */
  onSent?: () => void
}

export interface StreamResult {
  text: string
  toolCalls: ModelToolCall[]
  usage: Usage
  /** Why the model stopped, normalised: `end_turn`, `tool_use`, `max_tokens` or the raw reason. */
  stopReason: string
  /** The thinking blocks the reply began with, in order, signatures included. */
  thinking?: ThinkingBlock[]
}

/** One configured model endpoint, spoken to through its official SDK. */
export interface Provider {
  readonly id: string
  stream(request: StreamRequest, onText: (delta: string) => void): Promise<StreamResult>
  listModels(signal?: AbortSignal): Promise<string[]>
}

export const zeroUsage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 }

export function addUsage(a: Usage, b: Usage): Usage {
  const written =
    a.cacheWriteTokens === undefined && b.cacheWriteTokens === undefined
      ? {}
      : { cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0) }
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    ...written
  }
}

/** Tool results carry text for providers whose tool messages cannot hold images. */
export function textOfBlocks(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.type === 'text' ? block.text : `[image: ${block.mediaType}]`))
    .join('\n')
}

/** Tool calls streamed by position, in the order the model wrote them. */
export function inIndexOrder(calls: ReadonlyMap<number, ModelToolCall>): ModelToolCall[] {
  return [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
}
