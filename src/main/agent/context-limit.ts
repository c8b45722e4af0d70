import type { ChatMessage } from '../providers/provider'
import type { ModelToolSchema } from '../tools/catalog'

/** The context window a server serves the model with, known before the request is sent. */
export interface ContextLimit {
  tokens: number
  /** How to raise it, as a sentence's end (see providers/served-context-window.ts). */
  raise: string
}

/**
 * Bytes per token for this check. Looser than the budgets' 3: the check refuses a request, so it
 * errs toward sending one that may just fit rather than refusing one that would.
 */
const CHECK_BYTES_PER_TOKEN = 4

/** What the check counts an image as, in tokens. */
const IMAGE_TOKENS = 1600

/** A person's image or a tool result's image block: what holds base64 `data` beside its type. */
function isImage(holder: unknown): boolean {
  return typeof holder === 'object' && holder !== null && 'mediaType' in holder
}

/** About how many tokens a request's prompt takes: its system text, history and tool schemas. */
export function promptTokens(
  system: string,
  messages: readonly ChatMessage[],
  tools: readonly ModelToolSchema[]
): number {
  let images = 0
  // An image costs a model its pixels' tokens, not its base64's: counted apart, at about the most
  // one costs (Anthropic: about 1600 for the largest it takes without scaling it down).
  const withoutImages = JSON.stringify(messages, function (this: unknown, key, value: unknown) {
    if (key !== 'data' || typeof value !== 'string' || !isImage(this)) return value
    images++
    return ''
  })
  const bytes =
    Buffer.byteLength(system) +
    Buffer.byteLength(withoutImages) +
    Buffer.byteLength(JSON.stringify(tools))
  return Math.ceil(bytes / CHECK_BYTES_PER_TOKEN) + images * IMAGE_TOKENS
}

/**
 * Why a request must not be sent: local servers cut a prompt longer than their window from the
 * start without a word, taking the instructions and the tools with it, so the model goes on
 * blind. Null when it fits.
 */
export function overContextLimit(
  model: string,
  limit: ContextLimit,
  tokens: number
): string | null {
  if (tokens <= limit.tokens) return null
  return `This request needs about ${tokens} tokens, but the server runs ${model} with a context window of ${limit.tokens} tokens and would silently cut the start of the prompt (the instructions and tools with it), so it was not sent. To go on, ${limit.raise}; or, if the conversation is what grew, start a new session.`
}
