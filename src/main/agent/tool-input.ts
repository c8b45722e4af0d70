import type { Tool } from '../tools/tool'

export type ParsedInput =
  { ok: true; value: unknown; shown: unknown } | { ok: false; message: string; shown: unknown }

/**
 * Turns what the model sent into the tool's typed input. Malformed JSON and schema failures come
 * back as messages naming the field, so the model can correct itself.
 */
export function parseToolInput(tool: Tool, raw: unknown): ParsedInput {
  let value: unknown = raw
  if (typeof raw === 'string') {
    const text = raw.trim() === '' ? '{}' : raw
    try {
      value = JSON.parse(text)
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      return {
        ok: false,
        shown: raw,
        message: `The arguments for ${tool.name} are not valid JSON (${why}). Send one JSON object matching the tool's input schema.`
      }
    }
  }
  const result = tool.inputSchema.safeParse(value)
  if (result.success) return { ok: true, value: result.data, shown: value }
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)'
    return `\`${field}\`: ${issue.message}`
  })
  return {
    ok: false,
    shown: value,
    message: `Invalid input for ${tool.name}: ${problems.join('; ')}.`
  }
}
