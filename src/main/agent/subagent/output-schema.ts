import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'

/** What a Subagent call's `output_schema` made of its child's final answer. */
export type SchemaVerdict = { ok: true; json: string } | { ok: false; why: string }

/** A schema ready to check answers, or why it cannot be used. */
export type CompiledSchema =
  { ok: true; check: (answer: string) => SchemaVerdict } | { ok: false; why: string }

/** Characters of schema JSON a call may send: enough for any answer format, not for a bomb. */
export const MAX_SCHEMA_CHARS = 20_000

/** Nesting a schema may have; deeper ones would overflow the stack of the compiler. */
export const MAX_SCHEMA_DEPTH = 32

/**
 * Compiles the JSON Schema a Subagent call gave for its child's answer. The schema comes from
 * the model, which may be steered by what it read, so it is held to more than the validator
 * asks: bounded in size and depth, without `pattern` or `patternProperties`, whose regular
 * expressions run in this process and could backtrack for minutes on a crafted answer, and
 * without `$async`, which makes the validator answer with a promise that would pass anything.
 * Each call gets a validator of its own, so one call's `$id` never stands for another's schema.
 * The validator (ajv, through the MCP SDK) is loaded by the first call that gives a schema: a
 * process that never checks an answer does not pay for it at start.
 */
export async function compileOutputSchema(
  schema: Record<string, unknown>
): Promise<CompiledSchema> {
  // Depth first: only a schema of bounded depth is safe to serialise and to compile.
  const problem = refusedPart(schema, 0)
  if (problem) return { ok: false, why: problem }
  const text = JSON.stringify(schema)
  if (text.length > MAX_SCHEMA_CHARS) {
    return {
      ok: false,
      why: `output_schema is ${text.length} characters long; keep it under ${MAX_SCHEMA_CHARS}.`
    }
  }
  const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv')
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>
  try {
    validate = new AjvJsonSchemaValidator().getValidator(schema)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      why: `output_schema is not a JSON Schema that can be used: ${message}. Fix it (a $ref may only point inside the schema) and call again.`
    }
  }
  return {
    ok: true,
    check: (answer) => {
      const parsed = parseAnswer(answer)
      if (!parsed.ok) return parsed
      const result = validate(parsed.value)
      if (result.valid) return { ok: true, json: JSON.stringify(parsed.value) }
      return { ok: false, why: `the answer does not match output_schema: ${result.errorMessage}` }
    }
  }
}

/** What the child is told, so that it knows its final message is checked. */
export function describeOutputSchema(schema: Record<string, unknown>): string {
  return [
    'Your final message is checked against a JSON Schema: make it one JSON value that satisfies the schema, with nothing before or after it.',
    `The schema: ${JSON.stringify(schema)}`
  ].join('\n')
}

/** The JSON in an answer: all of it, or the inside of one fenced code block around it. */
function parseAnswer(answer: string): { ok: true; value: unknown } | { ok: false; why: string } {
  const text = answer.trim()
  const fenced = /^```[a-zA-Z]*\n([\s\S]*)\n```$/.exec(text)
  const json = fenced?.[1] ?? text
  if (json.trim() === '') return { ok: false, why: 'the sub-agent gave no answer' }
  try {
    return { ok: true, value: JSON.parse(json) as unknown }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return { ok: false, why: `the answer is not JSON (${why})` }
  }
}

/**
 * Why a schema is refused, or null. Every object in it is looked at, wherever it sits (a `$ref`
 * can make any of them a schema), so a regular expression cannot hide under another keyword.
 */
function refusedPart(value: unknown, depth: number): string | null {
  if (depth > MAX_SCHEMA_DEPTH) {
    return `output_schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep; flatten it.`
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = refusedPart(item, depth + 1)
      if (problem) return problem
    }
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$async') {
      return 'output_schema may not use `$async`: the answer is checked at once, when the sub-agent finishes.'
    }
    if (
      (key === 'pattern' && typeof inner === 'string') ||
      (key === 'patternProperties' && typeof inner === 'object' && inner !== null)
    ) {
      return `output_schema may not use \`${key}\`: its regular expression would run inside Mecatl and a crafted answer could stall it. Describe the format in the task and check the answer with type, enum, const, format or length limits instead.`
    }
    const problem = refusedPart(inner, depth + 1)
    if (problem) return problem
  }
  return null
}
