// What a zod schema takes, in words: each key of an object schema with its type, its default, the
// values it allows, and the doc comments the source gives it (found by scripts/schema-doc-comments).
// scripts/settings-reference.ts lays these out as docs/settings-reference.md.
import { isDeepStrictEqual } from 'node:util'
import { safeParse, type core } from 'zod'
import type { SchemaSource, SchemaSources } from './schema-doc-comments'

type Schema = core.$ZodType

/** A schema's definition, with the fields of the kinds described here. */
interface Def {
  type: string
  checks?: readonly core.$ZodCheck[]
  format?: string
  innerType?: Schema
  defaultValue?: unknown
  shape?: Record<string, Schema>
  catchall?: Schema
  element?: Schema
  keyType?: Schema
  valueType?: Schema
  options?: readonly Schema[]
  discriminator?: string
  entries?: Record<string, string | number>
  values?: readonly unknown[]
}

const defOf = (schema: Schema): Def => schema._zod.def as Def

/** A key as the page shows it: a name, what it takes, and what is said about it. */
export interface Entry {
  name: string
  summary: string
  docs: string[]
  children: Entry[]
}

/**
 * Describes schemas together with their source; `where` (`mcp[].auth`) names a key in errors. A
 * kind of schema not described here is an error, so a new construct in the settings gets a
 * description rather than silently vanishing from the reference.
 */
class Describer {
  constructor(private readonly sources: SchemaSources) {}

  /** The keys of an object schema, each with its summary, comments and nested keys. */
  keys(schema: Schema, source: SchemaSource | undefined, where: string): Entry[] {
    const def = defOf(schema)
    if (def.type !== 'object' || !def.shape) throw new Error(`${where} is not an object schema`)
    return Object.entries(def.shape).map(([name, child]) => {
      const childSource = this.sources.property(source, name)
      return this.entry(name, child, childSource, `${where ? `${where}.` : ''}${name}`)
    })
  }

  private entry(
    name: string,
    schema: Schema,
    source: SchemaSource | undefined,
    where: string
  ): Entry {
    const docs = this.sources.comments(source)
    let presence = 'required'
    let inner = schema
    for (;;) {
      const def = defOf(inner)
      if (def.type === 'default' && def.innerType) {
        presence = this.defaultText(def.innerType, def.defaultValue)
        inner = def.innerType
      } else if (def.type === 'optional' && def.innerType) {
        if (presence === 'required') presence = 'optional'
        inner = def.innerType
      } else {
        break
      }
    }
    const shape = this.shape(inner, source, where)
    return {
      name,
      summary: [shape.type, presence].filter(Boolean).join('; '),
      docs: [...docs, ...shape.docs.filter((doc) => !docs.includes(doc))],
      children: shape.children
    }
  }

  /** What a schema without its optional/default wrappers takes, in words, and its nested keys. */
  private shape(
    schema: Schema,
    source: SchemaSource | undefined,
    where: string
  ): { type: string; docs: string[]; children: Entry[] } {
    const def = defOf(schema)
    const none = { docs: [], children: [] }
    switch (def.type) {
      case 'string':
        return { type: join(def.format === 'url' ? 'a URL' : 'text', stringChecks(def)), ...none }
      case 'number':
        return { type: numberText(def), ...none }
      case 'boolean':
        return { type: '`true` or `false`', ...none }
      case 'enum':
        return {
          type: `one of ${Object.values(def.entries ?? {})
            .map(code)
            .join(', ')}`,
          ...none
        }
      case 'literal':
        return { type: (def.values ?? []).map(code).join(' or '), ...none }
      case 'object': {
        const strict = def.catchall && defOf(def.catchall).type === 'never'
        return {
          type: strict ? 'object' : 'object (other keys allowed)',
          docs: [],
          children: this.keys(schema, source, where)
        }
      }
      case 'array': {
        if (!def.element) break
        const item = this.sources.element(source)
        const element = this.shape(def.element, item, `${where}[]`)
        const docs = this.sources.comments(item)
        return {
          type: join(`list of ${plural(element.type)}`, lengthChecks(def)),
          docs: [...docs, ...element.docs],
          children: element.children
        }
      }
      case 'record': {
        if (!def.keyType || !def.valueType) break
        const value = this.sources.recordValue(source)
        const key = this.shape(def.keyType, undefined, `${where} key`)
        const shown = this.shape(def.valueType, value, `${where}.*`)
        return {
          type: `map from ${plural(key.type)} to ${plural(shown.type)}`,
          docs: [...this.sources.comments(value), ...shown.docs],
          children: shown.children
        }
      }
      case 'union':
        return this.union(def, source, where)
    }
    throw new Error(
      `${where}: the settings reference cannot describe a zod ${def.type} schema yet; teach scripts/describe-schema.ts how`
    )
  }

  /** A union: one of several values, or (objects told apart by a key) one of several forms. */
  private union(
    def: Def,
    source: SchemaSource | undefined,
    where: string
  ): { type: string; docs: string[]; children: Entry[] } {
    const options = def.options ?? []
    const sources = this.sources.options(source)
    const objects = options.every((option) => defOf(option).type === 'object')
    if (!objects) {
      const types = options.map((option, i) => this.shape(option, sources[i], `${where}|${i}`).type)
      return { type: `one of: ${types.join('; ')}`, docs: [], children: [] }
    }
    const key = def.discriminator
    const children = options.map((option, i) => {
      const form = defOf(option).shape ?? {}
      const tag = key ? form[key] : undefined
      const label = tag ? `${key}: ${(defOf(tag).values ?? []).join(' | ')}` : `form ${i + 1}`
      const keys = this.keys(option, sources[i], `${where}(${label})`).filter((k) => k.name !== key)
      return {
        name: label,
        summary: keys.length === 0 ? 'no other keys' : '',
        docs: this.sources.comments(sources[i]),
        children: keys
      }
    })
    const type = key
      ? `one of the forms below, told apart by ${code(key)}`
      : 'one of the forms below'
    return { type, docs: [], children }
  }

  /** A default as YAML would write it, or that an object's default is just its keys' defaults. */
  private defaultText(schema: Schema, value: unknown): string {
    if (defOf(schema).type === 'object' && isObject(value) && Object.keys(value).length > 0) {
      const parsed = safeParse(schema, {})
      if (parsed.success && isDeepStrictEqual(parsed.data, value)) {
        return 'when unset, each key takes its default'
      }
    }
    return `default ${code(yaml(value))}`
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A value in YAML's flow style: `ask`, `[]`, `{ mode: ask, rules: [] }`. */
function yaml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yaml).join(', ')}]`
  if (isObject(value)) {
    const pairs = Object.entries(value).map(([k, v]) => `${k}: ${yaml(v)}`)
    return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`
  }
  return String(value)
}

/** A value as inline code, fenced with double backticks when it holds one. */
export function code(value: unknown): string {
  const text = String(value)
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``
}

const join = (head: string, tail: readonly string[]): string =>
  tail.length === 0 ? head : `${head}, ${tail.join(', ')}`

/**
 * A type as the items of a list or the keys and values of a map: "objects" for "object", and what
 * constrains the items in parentheses, so it is not read as constraining the list.
 */
function plural(type: string): string {
  if (type === 'object') return 'objects'
  if (type.startsWith('object ')) return `objects ${type.slice('object '.length)}`
  if (type.startsWith('one of the forms below')) return `objects, ${type}`
  const comma = type.indexOf(', ')
  return comma < 0 || type.startsWith('one of')
    ? type
    : `${type.slice(0, comma)} (${type.slice(comma + 2)})`
}

/** The message a check was given (`.regex(re, 'use letters…')`), if any. */
function messageOf(check: core.$ZodCheck): string | undefined {
  const error: unknown = (check._zod.def as { error?: unknown }).error
  if (typeof error !== 'function') return undefined
  const said: unknown = error({})
  if (typeof said === 'string') return said
  if (isObject(said) && typeof said.message === 'string') return said.message
  return undefined
}

/** What a string's checks allow: its length, the pattern it matches, and why (its message). */
function stringChecks(def: Def): string[] {
  const said: string[] = []
  for (const check of def.checks ?? []) {
    const c = check._zod.def as core.$ZodCheckDef & {
      minimum?: number
      maximum?: number
      format?: string
      pattern?: RegExp
    }
    const message = messageOf(check)
    const why = message ? ` (${quote(message)})` : ''
    if (c.check === 'min_length' && c.minimum === 1) said.push(`not empty${why}`)
    else if (c.check === 'min_length') said.push(`at least ${c.minimum} characters${why}`)
    else if (c.check === 'max_length') said.push(`at most ${c.maximum} characters${why}`)
    else if (c.check === 'string_format' && c.format === 'regex' && c.pattern) {
      said.push(`matching ${code(c.pattern.source)}${why}`)
    } else if (c.check === 'custom' && message) said.push(`checked: ${quote(message)}`)
  }
  return said
}

/** How many entries a list must or may have. */
function lengthChecks(def: Def): string[] {
  const said: string[] = []
  for (const check of def.checks ?? []) {
    const c = check._zod.def as core.$ZodCheckDef & { minimum?: number; maximum?: number }
    if (c.check === 'min_length') {
      said.push(c.minimum === 1 ? 'at least one entry' : `at least ${c.minimum} entries`)
    }
    if (c.check === 'max_length') said.push(`at most ${c.maximum} entries`)
  }
  return said
}

/** `integer ≥ 1, ≤ 300`: a number's kind and range. */
function numberText(def: Def): string {
  let integer = false
  let low: string | undefined
  let high: string | undefined
  for (const check of def.checks ?? []) {
    const c = check._zod.def as core.$ZodCheckDef & {
      format?: string
      value?: number
      inclusive?: boolean
    }
    if (c.check === 'number_format' && c.format?.includes('int')) integer = true
    if (c.check === 'greater_than') low = `${c.inclusive ? '≥' : '>'} ${c.value}`
    if (c.check === 'less_than') high = `${c.inclusive ? '≤' : '<'} ${c.value}`
  }
  const kind = integer ? 'integer' : 'number'
  const range = [low, high].filter(Boolean).join(', ')
  return range ? `${kind} ${range}` : kind
}

/** A message from the source, as quoted words that Markdown shows as written. */
function quote(message: string): string {
  return `“${escapeText(message)}”`
}

/**
 * Text from the source made safe for Markdown outside its code spans: `<tool>` must not be taken
 * for HTML, nor `__` or `*` for emphasis.
 */
export function escapeText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : escapePlain(part)))
    .join('')
}

function escapePlain(text: string): string {
  return text.replace(/[\\*_<[\]]/g, (c, at: number) => {
    // An underscore inside a word (EXA_API_KEY) can neither open nor close emphasis.
    const inWord = /[A-Za-z0-9]/.test(text[at - 1] ?? '') && /[A-Za-z0-9]/.test(text[at + 1] ?? '')
    return c === '_' && inWord ? c : `\\${c}`
  })
}

/** The keys of `schema`, an object schema written as the constant `name` of `file`. */
export function describeKeys(
  schema: Schema,
  sources: SchemaSources,
  file: string,
  name: string
): Entry[] {
  return new Describer(sources).keys(schema, sources.constant(file, name), '')
}
