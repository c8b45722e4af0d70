import type {
  ContentBlockParam,
  RawMessageStreamEvent,
  ThinkingConfigParam
} from '@anthropic-ai/sdk/resources/messages'
import type { ModelRef } from '../../shared/domain'
import { reasoningOf, type ModelReasoning, type ThinkingBlock } from '../../shared/reasoning'
import type { Settings } from '../../shared/settings'
import { providerSettingsFor } from './provider-settings'
import type { StreamRequest } from './provider'

/**
 * `max_tokens` and `thinking` for a Messages request. The API counts thinking within
 * `max_tokens` and refuses a budget not below it, so the budget is added on top: the reply keeps
 * the whole `max_tokens` of the settings after the model has thought.
 */
export function anthropicThinkingParams(request: StreamRequest): {
  max_tokens: number
  thinking?: ThinkingConfigParam
} {
  const budget = request.reasoning?.thinking_budget
  if (budget === undefined) return { max_tokens: request.maxTokens }
  return {
    max_tokens: request.maxTokens + budget,
    thinking: { type: 'enabled', budget_tokens: budget }
  }
}

/**
 * The thinking blocks of an assistant message, first in its content as the API returned them.
 * In a tool-use turn the API requires them back unchanged (text and signature), or it refuses the
 * request; a block without a signature (from a server that does not sign) cannot be checked by
 * the API, so it is not sent.
 */
export function anthropicThinkingBlocks(
  thinking: readonly ThinkingBlock[] | undefined
): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = []
  for (const block of thinking ?? []) {
    if (block.type === 'redacted_thinking') {
      blocks.push({ type: 'redacted_thinking', data: block.data })
    } else if (block.signature !== '') {
      blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature })
    }
  }
  return blocks
}

/**
 * Gathers a streamed reply's thinking blocks: `thinking_delta` and `signature_delta` fragments by
 * content-block index, and redacted blocks whole. A finished block is reported at once, so the
 * window shows the thinking before the answer arrives.
 */
export class ThinkingCollector {
  private readonly open = new Map<number, ThinkingBlock>()
  /** Each open block's place among the reply's thinking blocks (its index in `blocks()`). */
  private readonly places = new Map<number, number>()
  private readonly done: ThinkingBlock[] = []

  constructor(
    private readonly onBlock?: (blocks: readonly ThinkingBlock[]) => void,
    /** Told each piece of thinking text as it streams, with its block's place. */
    private readonly onDelta?: (place: number, delta: string) => void
  ) {}

  apply(event: RawMessageStreamEvent): void {
    if (event.type === 'content_block_start') {
      const block = event.content_block
      if (block.type === 'thinking' || block.type === 'redacted_thinking') {
        this.places.set(event.index, this.done.length + this.open.size)
      }
      if (block.type === 'thinking') {
        this.open.set(event.index, {
          type: 'thinking',
          thinking: block.thinking,
          signature: block.signature
        })
      } else if (block.type === 'redacted_thinking') {
        this.open.set(event.index, { type: 'redacted_thinking', data: block.data })
      }
    } else if (event.type === 'content_block_delta') {
      const block = this.open.get(event.index)
      if (block?.type !== 'thinking') return
      if (event.delta.type === 'thinking_delta') {
        block.thinking += event.delta.thinking
        const place = this.places.get(event.index)
        if (place !== undefined && event.delta.thinking) this.onDelta?.(place, event.delta.thinking)
      } else if (event.delta.type === 'signature_delta') block.signature += event.delta.signature
    } else if (event.type === 'content_block_stop') {
      const block = this.open.get(event.index)
      if (!block) return
      this.open.delete(event.index)
      this.places.delete(event.index)
      this.done.push(block)
      this.onBlock?.([...this.done])
    }
  }

  /** The finished blocks, in the order they came; an unfinished one has no signature yet. */
  blocks(): ThinkingBlock[] {
    return [...this.done]
  }
}

/** The `reasoning` a turn of `ref` gets from the settings: nothing when it is off. */
export function modelReasoningFor(
  ref: ModelRef | null,
  settings: Settings
): { reasoning?: ModelReasoning } {
  const reasoning = ref ? reasoningOf(providerSettingsFor(ref, settings), ref.model) : undefined
  return reasoning ? { reasoning } : {}
}
