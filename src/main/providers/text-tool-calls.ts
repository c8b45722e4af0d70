import { randomUUID } from 'node:crypto'
import type { ModelToolCall } from './provider'

/** What a reply's text said once the tool calls written into it are taken out. */
export interface TextToolCalls {
  text: string
  calls: ModelToolCall[]
}

const OPEN = '<tool_call>'
const CLOSE = '</tool_call>'
const FENCE = /```(?:json|tool_call|tool_code)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/g

/**
 * A call as local models write it: `{"name": …, "arguments": {…}}` (Hermes, Qwen) or with
 * `parameters` (Llama); arguments may come as an object or as JSON text. Anything else, or a
 * name that is not an offered tool, is not a call: a JSON example in prose must not run.
 */
function asCall(value: unknown, offered: ReadonlySet<string>): ModelToolCall | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const fields = value as Record<string, unknown>
  const keys = Object.keys(fields)
  const argsKey = keys.find((k) => k === 'arguments' || k === 'parameters')
  if (keys.length > (argsKey ? 2 : 1) || typeof fields.name !== 'string') return null
  if (!offered.has(fields.name)) return null
  const args = argsKey ? fields[argsKey] : {}
  let input: string
  if (typeof args === 'string') {
    const parsed = parseJson(args)
    if (!isObject(parsed)) return null
    input = args
  } else if (isObject(args)) {
    input = JSON.stringify(args)
  } else {
    return null
  }
  return {
    id: `call_text_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    name: fields.name,
    input
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** One call, or several in an array; null unless every one of them is a call. */
function callsIn(json: string, offered: ReadonlySet<string>): ModelToolCall[] | null {
  const parsed = parseJson(json.trim())
  const items = Array.isArray(parsed) ? parsed : [parsed]
  if (items.length === 0) return null
  const calls = items.map((item) => asCall(item, offered))
  return calls.every((c): c is ModelToolCall => c !== null) ? calls : null
}

/**
 * `<tool_call>…</tool_call>` spans. The arguments may themselves hold `</tool_call>` (a call that
 * writes this very file), so each later closing tag is tried until the JSON before it parses;
 * a model that stopped before closing the last one has the rest of the text tried.
 */
function taggedCalls(text: string, offered: ReadonlySet<string>): TextToolCalls | null {
  const calls: ModelToolCall[] = []
  let rest = ''
  let at = 0
  for (let open = text.indexOf(OPEN); open !== -1; open = text.indexOf(OPEN, at)) {
    const start = open + OPEN.length
    let found: { calls: ModelToolCall[]; end: number } | null = null
    for (
      let close = text.indexOf(CLOSE, start);
      close !== -1;
      close = text.indexOf(CLOSE, close + 1)
    ) {
      const parsed = callsIn(text.slice(start, close), offered)
      if (parsed) {
        found = { calls: parsed, end: close + CLOSE.length }
        break
      }
    }
    if (!found) {
      const parsed = callsIn(text.slice(start), offered)
      if (!parsed) return null
      found = { calls: parsed, end: text.length }
    }
    rest += text.slice(at, open)
    calls.push(...found.calls)
    at = found.end
  }
  if (calls.length === 0) return null
  return { text: (rest + text.slice(at)).trim(), calls }
}

function fencedCalls(text: string, offered: ReadonlySet<string>): TextToolCalls | null {
  const calls: ModelToolCall[] = []
  const rest = text.replace(FENCE, (block: string, body: string) => {
    const parsed = callsIn(body, offered)
    if (!parsed) return block
    calls.push(...parsed)
    return ''
  })
  if (calls.length === 0) return null
  return { text: rest.trim(), calls }
}

/**
 * The tool calls a model wrote as text instead of sending them as calls, and the text without
 * them; null when there are none. `offered` names the tools the request offered.
 */
export function parseTextToolCalls(text: string, offered: readonly string[]): TextToolCalls | null {
  if (offered.length === 0) return null
  const names = new Set(offered)
  if (text.includes(OPEN)) return taggedCalls(text, names)
  return fencedCalls(text, names)
}

/**
 * Makes the tool calls written in a reply's text its calls, when it has no real ones: the text
 * keeps only what is not a call (what streamed already was shown; the record keeps this).
 */
export function takeTextToolCalls(
  result: { text: string; toolCalls: ModelToolCall[]; stopReason: string },
  request: { tools: readonly { name: string }[] }
): void {
  if (result.toolCalls.length > 0) return
  const found = parseTextToolCalls(
    result.text,
    request.tools.map((tool) => tool.name)
  )
  if (!found) return
  result.text = found.text
  result.toolCalls = found.calls
  result.stopReason = 'tool_use'
}
