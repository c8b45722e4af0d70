/**
 * How an event is laid out in a `session_events` row. A message's words (a user message or reply
 * in a `transcript.item`, a piece of a reply in a `message.delta`) are kept once, in the `text`
 * column that search reads, and left out of the JSON payload (their place holds null, so the
 * fields keep their order). Words that UTF-8 cannot hold exactly (a lone UTF-16 surrogate, which
 * SQLite would turn into U+FFFD) stay in the payload, whose JSON escapes them, and the column
 * gets a readable copy for search: nothing a model sent comes back changed.
 */

/** A row's payload and search text, as stored. */
export interface EncodedEvent {
  payload: string
  text: string | null
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g')

/** The object holding an event's words and the field they are in, or null when it has none. */
function wordsHolder(
  kind: string,
  payload: Record<string, unknown>
): { holder: Record<string, unknown>; field: string } | null {
  if (kind === 'message.delta') return { holder: payload, field: 'delta' }
  if (kind !== 'transcript.item') return null
  const item = payload.item
  if (typeof item !== 'object' || item === null) return null
  const kindOf = (item as { kind?: unknown }).kind
  if (kindOf !== 'user' && kindOf !== 'assistant') return null
  return { holder: item as Record<string, unknown>, field: 'text' }
}

/** The row for an event: its words moved to the search column when they survive it exactly. */
export function encodeEvent(kind: string, payload: Record<string, unknown>): EncodedEvent {
  const words = wordsHolder(kind, payload)
  const text = words?.holder[words.field]
  if (!words || typeof text !== 'string') return { payload: JSON.stringify(payload), text: null }
  if (LONE_SURROGATE.test(text)) {
    return { payload: JSON.stringify(payload), text: text.replace(LONE_SURROGATES, '\uFFFD') }
  }
  const { holder, field } = words
  const replacer = function (this: unknown, name: string, value: unknown): unknown {
    return this === holder && name === field ? null : value
  }
  return { payload: JSON.stringify(payload, replacer), text }
}

/** The event a row holds: its words put back where the payload kept their place. */
export function decodeEvent(
  kind: string,
  payload: string,
  text: string | null
): Record<string, unknown> {
  const parsed = JSON.parse(payload) as Record<string, unknown>
  const words = wordsHolder(kind, parsed)
  if (words && words.holder[words.field] === null && text !== null) {
    words.holder[words.field] = text
  }
  return parsed
}
