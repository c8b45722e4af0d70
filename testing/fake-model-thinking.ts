// Extended thinking as the Anthropic API does it, for the fake model server: scripted thinking is
// streamed as signed thinking blocks, and a request that sends thinking back is checked the way the
// API checks it, so a client that drops or alters a block in a tool-use turn is refused.
import { createHash } from 'node:crypto'
import { asArray, isRecord } from './fake-model-types'

/** The signature the fake API gives a thinking text: any change to the text breaks it. */
export function fakeSignature(thinking: string): string {
  return `fake-sig:${createHash('sha256').update(thinking).digest('base64')}`
}

/** Redacted thinking's opaque data, as the fake API hands it out. */
export const fakeRedactedData = 'fake-redacted:opaque'

/**
 * The content blocks of a reply's thinking, as the stream's `content_block_*` events carry them
 * (`redacted` scripts a redacted block). Each block is `[start, deltas…, stop]` without indices.
 */
export function thinkingBlockEvents(
  thinking: readonly string[] | undefined,
  index: number
): Record<string, unknown>[][] {
  return (thinking ?? []).map((text, offset) => {
    const at = index + offset
    if (text === 'redacted') {
      return [
        {
          type: 'content_block_start',
          index: at,
          content_block: { type: 'redacted_thinking', data: fakeRedactedData }
        },
        { type: 'content_block_stop', index: at }
      ]
    }
    const half = Math.ceil(text.length / 2)
    return [
      {
        type: 'content_block_start',
        index: at,
        content_block: { type: 'thinking', thinking: '', signature: '' }
      },
      ...[text.slice(0, half), text.slice(half)]
        .filter((piece) => piece !== '')
        .map((piece) => ({
          type: 'content_block_delta',
          index: at,
          delta: { type: 'thinking_delta', thinking: piece }
        })),
      {
        type: 'content_block_delta',
        index: at,
        delta: { type: 'signature_delta', signature: fakeSignature(text) }
      },
      { type: 'content_block_stop', index: at }
    ]
  })
}

/**
 * Why the real API would refuse this request's thinking, or null. With thinking enabled, an
 * assistant message that used a tool and is answered by the last user message (the tool loop in
 * progress) must begin with its thinking; and every thinking block sent must carry the signature
 * it was given, unchanged.
 */
export function anthropicThinkingRefusal(body: unknown): string | null {
  if (!isRecord(body)) return null
  const messages = asArray(body['messages']).filter(isRecord)
  for (const message of messages) {
    for (const block of asArray(message['content']).filter(isRecord)) {
      if (block['type'] === 'thinking') {
        const text = typeof block['thinking'] === 'string' ? block['thinking'] : ''
        if (block['signature'] !== fakeSignature(text)) {
          return 'messages: Invalid `signature` in `thinking` block'
        }
      }
      if (block['type'] === 'redacted_thinking' && block['data'] !== fakeRedactedData) {
        return 'messages: Invalid `data` in `redacted_thinking` block'
      }
    }
  }
  const enabled = isRecord(body['thinking']) && body['thinking']['type'] === 'enabled'
  const last = messages.at(-2)
  if (!enabled || last?.['role'] !== 'assistant') return null
  const content = asArray(last['content']).filter(isRecord)
  const usesTool = content.some((block) => block['type'] === 'tool_use')
  const first = content[0]?.['type']
  if (usesTool && first !== 'thinking' && first !== 'redacted_thinking') {
    return 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.'
  }
  return null
}
