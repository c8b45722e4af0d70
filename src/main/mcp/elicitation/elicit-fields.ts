import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { ElicitField } from '../../../shared/elicitation'

type Json = Record<string, unknown>

const FORMATS = ['email', 'uri', 'date', 'date-time'] as const

/**
 * Turns a form request's `requestedSchema` into the fields the window draws. What the protocol
 * does not allow in a form (a nested object, a list of free text) is refused as a whole, with the
 * property named, rather than shown as a form the server did not mean.
 */
export function elicitFields(requestedSchema: unknown): ElicitField[] {
  const schema = asObject(requestedSchema)
  if (!schema || schema.type !== 'object') {
    throw invalid('its requestedSchema must be an object schema ({"type": "object", ...})')
  }
  const properties = asObject(schema.properties) ?? {}
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []
  )
  for (const name of required) {
    if (!(name in properties)) throw invalid(`it requires "${name}", which it does not describe`)
  }
  return Object.entries(properties).map(([name, raw]) => {
    const property = asObject(raw)
    if (!property) throw invalid(`its property "${name}" is not a schema`)
    return fieldOf(name, property, required.has(name))
  })
}

function fieldOf(name: string, p: Json, required: boolean): ElicitField {
  const base = {
    name,
    label: text(p.title) ?? name,
    description: text(p.description),
    required
  }
  if (p.type === 'boolean') {
    return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : null }
  }
  if (p.type === 'number' || p.type === 'integer') {
    const integer = p.type === 'integer'
    const value = finite(p.default)
    const fits = value !== null && (!integer || Number.isInteger(value))
    return {
      ...base,
      kind: 'number',
      integer,
      minimum: finite(p.minimum),
      maximum: finite(p.maximum),
      default: fits ? value : null
    }
  }
  if (p.type === 'string') {
    const options = singleChoices(p)
    if (options) {
      const chosen = text(p.default)
      const fits = chosen !== null && options.some((o) => o.value === chosen)
      return { ...base, kind: 'choice', options, default: fits ? chosen : null }
    }
    const format = FORMATS.find((f) => f === p.format) ?? null
    if (p.format !== undefined && format === null) {
      throw invalid(
        `its property "${name}" has the format "${String(p.format)}", which forms do not take`
      )
    }
    return {
      ...base,
      kind: 'text',
      format,
      minLength: count(p.minLength),
      maxLength: count(p.maxLength),
      default: typeof p.default === 'string' ? p.default : null
    }
  }
  if (p.type === 'array') {
    const options = multiChoices(asObject(p.items))
    if (!options) {
      throw invalid(`its property "${name}" is a list whose items are not a list of choices`)
    }
    const chosen = Array.isArray(p.default)
      ? p.default.filter((v): v is string => options.some((o) => o.value === v))
      : null
    return {
      ...base,
      kind: 'multi',
      options,
      minItems: count(p.minItems),
      maxItems: count(p.maxItems),
      default: chosen
    }
  }
  throw invalid(
    `its property "${name}" has the type "${String(p.type)}"; a form takes text, numbers, yes/no and choices`
  )
}

/** `enum` (with the legacy `enumNames` as labels) or `oneOf` of `{const, title}`. */
function singleChoices(p: Json): { value: string; label: string }[] | null {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : []
    return p.enum
      .filter((v): v is string => typeof v === 'string')
      .map((value, i) => ({ value, label: text(names[i]) ?? value }))
  }
  return Array.isArray(p.oneOf) ? constChoices(p.oneOf) : null
}

/** Items as `{type: 'string', enum}` or `{anyOf: [{const, title}]}`. */
function multiChoices(items: Json | null): { value: string; label: string }[] | null {
  if (!items) return null
  if (Array.isArray(items.enum)) {
    return items.enum
      .filter((v): v is string => typeof v === 'string')
      .map((value) => ({ value, label: value }))
  }
  return Array.isArray(items.anyOf) ? constChoices(items.anyOf) : null
}

function constChoices(list: unknown[]): { value: string; label: string }[] {
  return list.flatMap((entry) => {
    const choice = asObject(entry)
    const value = choice ? text(choice.const) : null
    return choice && value !== null ? [{ value, label: text(choice.title) ?? value }] : []
  })
}

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

function invalid(why: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Mecatl cannot show this request for input as a form: ${why}. Ask with a flat object of text, number, yes/no or choice fields.`
  )
}
