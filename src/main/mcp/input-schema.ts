import { z } from 'zod'

/**
 * Deeper than this (in JSON nesting: an object property is two levels) a server's input schema
 * is refused. Real tools stay far below it; zod reads and checks a schema by recursion, so a
 * schema thousands of levels deep would end in a stack overflow rather than an answer.
 */
export const MAX_SCHEMA_DEPTH = 100

/** An MCP tool's input schema as Mecatl uses it (see mcpInputSchema). */
export interface McpInputSchema {
  /** What arguments are checked against, and what the model is sent. */
  schema: z.ZodType
  /** Why the schema cannot be used, as the end of a sentence; null when it can. */
  unusable: string | null
}

/**
 * The server's JSON Schema as a zod schema, so arguments are checked before they reach the
 * server and the model is sent the same shape. A schema zod cannot read becomes "any object":
 * the server still checks what it receives. A schema that could never finish a check (one that
 * is itself, `{"$ref":"#"}`, or one nested past MAX_SCHEMA_DEPTH) is `unusable`: the tool is
 * listed, but its calls are answered with the reason and never sent. Whatever slips past
 * these checks, a check that runs out of stack is a failed check, never a crash.
 */
export function mcpInputSchema(json: unknown): McpInputSchema {
  const unusable = schemaProblem(json)
  if (unusable) return { schema: z.looseObject({}), unusable }
  let schema: z.ZodType
  try {
    schema = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0])
  } catch {
    return { schema: z.looseObject({}), unusable: null }
  }
  return { schema: bounded(schema), unusable: null }
}

/** `schema` with a check that runs out of stack (input nested too deep) turned into an issue. */
function bounded(schema: z.ZodType): z.ZodType {
  return z.preprocess((value, payload) => {
    try {
      schema.safeParse(value)
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      payload.issues.push({
        code: 'custom',
        input: value,
        message:
          'the input is nested too deeply to be checked against the tool’s schema; send a flatter input'
      })
    }
    return value
  }, schema)
}

/** Why `json` cannot be used as an input schema, or null. Iterative: it never overflows. */
export function schemaProblem(json: unknown): string | null {
  if (depthOver(json, MAX_SCHEMA_DEPTH)) {
    return `it is nested more than ${MAX_SCHEMA_DEPTH} levels deep`
  }
  const loop = referenceLoop(json)
  return loop ? `it refers to itself without end (${loop})` : null
}

function depthOver(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, depth] = next
    if (value === null || typeof value !== 'object') continue
    if (depth > limit) return true
    for (const child of Object.values(value)) stack.push([child, depth + 1])
  }
  return false
}

// Keywords whose schemas apply to the same value as the schema holding them: a loop through
// them alone (and $ref) never reaches a smaller part of the input, so a check never ends.
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const
const IN_PLACE_MANY = ['allOf', 'anyOf', 'oneOf'] as const

/**
 * A chain of `$ref`s and in-place keywords that leads from a schema back to itself, described
 * by the reference that closes it, or null. References into the document (`#`, `#/$defs/x`)
 * are followed; others are left to zod.
 */
function referenceLoop(root: unknown): string | null {
  if (!isObject(root)) return null
  // 1: on the current path, 2: done and loop-free; absent: not reached yet.
  const state = new Map<object, 1 | 2>()
  const all = schemaObjects(root)
  for (const start of all) {
    if (state.has(start)) continue
    const path: { node: object; edges: [object, string][]; next: number }[] = []
    const enter = (node: object): void => {
      state.set(node, 1)
      path.push({ node, edges: inPlaceEdges(root, node), next: 0 })
    }
    enter(start)
    while (path.length > 0) {
      const top = path[path.length - 1]!
      const edge = top.edges[top.next++]
      if (!edge) {
        state.set(top.node, 2)
        path.pop()
        continue
      }
      const [target, via] = edge
      const seen = state.get(target)
      if (seen === 1) return via
      if (seen === undefined) enter(target)
    }
  }
  return null
}

function inPlaceEdges(root: object, node: object): [object, string][] {
  const edges: [object, string][] = []
  const record = node as Record<string, unknown>
  const ref = record.$ref
  if (typeof ref === 'string') {
    const target = resolvePointer(root, ref)
    if (target) edges.push([target, `$ref "${ref}"`])
  }
  for (const key of IN_PLACE_ONE) {
    const child = record[key]
    if (isObject(child)) edges.push([child, `${key}`])
  }
  for (const key of IN_PLACE_MANY) {
    const list = record[key]
    if (!Array.isArray(list)) continue
    for (const child of list) if (isObject(child)) edges.push([child, key])
  }
  return edges
}

/** Every object in the document, any of which a pointer may name. */
function schemaObjects(root: object): object[] {
  const found: object[] = []
  const stack: unknown[] = [root]
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (!isObject(value) && !Array.isArray(value)) continue
    if (isObject(value)) found.push(value)
    stack.push(...Object.values(value as object))
  }
  return found
}

function resolvePointer(root: object, ref: string): object | null {
  if (!ref.startsWith('#')) return null
  const pointer = safeDecode(ref.slice(1))
  if (pointer === null || (pointer !== '' && !pointer.startsWith('/'))) return null
  let value: unknown = root
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, token)) return null
    value = (value as Record<string, unknown>)[token]
  }
  return isObject(value) ? value : null
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
