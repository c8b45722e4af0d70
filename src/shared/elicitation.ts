import { z } from 'zod'

const base = {
  /** The property's name in the server's schema: the key of the answer. */
  name: z.string(),
  /** What the form shows as the label: the property's title, or its name. */
  label: z.string(),
  description: z.string().nullable(),
  required: z.boolean()
}

const option = z.object({ value: z.string(), label: z.string() })

/** One field of a server's form, normalized from its `requestedSchema` property. */
export const elicitFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('text'),
    format: z.enum(['email', 'uri', 'date', 'date-time']).nullable(),
    minLength: z.number().int().nonnegative().nullable(),
    maxLength: z.number().int().nonnegative().nullable(),
    default: z.string().nullable()
  }),
  z.object({
    ...base,
    kind: z.literal('number'),
    integer: z.boolean(),
    minimum: z.number().nullable(),
    maximum: z.number().nullable(),
    default: z.number().nullable()
  }),
  z.object({ ...base, kind: z.literal('boolean'), default: z.boolean().nullable() }),
  z.object({
    ...base,
    kind: z.literal('choice'),
    options: z.array(option),
    default: z.string().nullable()
  }),
  z.object({
    ...base,
    kind: z.literal('multi'),
    options: z.array(option),
    minItems: z.number().int().nonnegative().nullable(),
    maxItems: z.number().int().nonnegative().nullable(),
    default: z.array(z.string()).nullable()
  })
])
export type ElicitField = z.infer<typeof elicitFieldSchema>

/** A server's request for input, waiting for the person in the window of `workspace`. */
export const elicitationSchema = z.object({
  elicitationId: z.string(),
  /** The project folder whose server asks: only that project's window shows it. */
  workspace: z.string(),
  server: z.string(),
  message: z.string(),
  fields: z.array(elicitFieldSchema)
})
export type Elicitation = z.infer<typeof elicitationSchema>

/** One value of an answer, as the protocol allows them. */
export const elicitValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])
export type ElicitValue = z.infer<typeof elicitValueSchema>

export const elicitActionSchema = z.enum(['accept', 'decline', 'cancel'])
export type ElicitAction = z.infer<typeof elicitActionSchema>

const FORMAT_NAMES = {
  email: 'an email address',
  uri: 'an address (URI) such as https://example.com',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (YYYY-MM-DDTHH:MM:SSZ)'
} as const

/**
 * What is wrong with an answer to a form, in a sentence naming the field; null when it fits.
 * Unknown keys are refused too, so nothing but what the server asked for is sent to it.
 */
export function elicitContentProblem(
  fields: readonly ElicitField[],
  content: Readonly<Record<string, unknown>>
): string | null {
  const byName = new Map(fields.map((field) => [field.name, field]))
  for (const key of Object.keys(content)) {
    if (!byName.has(key)) return `The form has no field "${key}"; leave it out.`
  }
  for (const field of fields) {
    const has = Object.prototype.hasOwnProperty.call(content, field.name)
    const value = has ? content[field.name] : undefined
    if (value === undefined) {
      if (field.required) return `“${field.label}” is required; fill it in.`
      continue
    }
    const problem = valueProblem(field, value)
    if (problem) return `“${field.label}” ${problem}.`
  }
  return null
}

function valueProblem(field: ElicitField, value: unknown): string | null {
  switch (field.kind) {
    case 'text':
      return textProblem(field, value)
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number'
      if (field.minimum !== null && value < field.minimum)
        return `must be at least ${field.minimum}`
      if (field.maximum !== null && value > field.maximum) return `must be at most ${field.maximum}`
      return null
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no'
    case 'choice': {
      if (typeof value !== 'string') return 'must be one of the choices'
      return field.options.some((o) => o.value === value) ? null : 'must be one of the choices'
    }
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        return 'must be a list of the choices'
      if (!value.every((v) => field.options.some((o) => o.value === v)))
        return 'may only hold the choices offered'
      if (new Set(value).size !== value.length) return 'lists a choice twice'
      if (field.minItems !== null && value.length < field.minItems)
        return `needs at least ${field.minItems} chosen`
      if (field.maxItems !== null && value.length > field.maxItems)
        return `takes at most ${field.maxItems} chosen`
      return null
    }
  }
}

function textProblem(field: Extract<ElicitField, { kind: 'text' }>, value: unknown): string | null {
  if (typeof value !== 'string') return 'must be text'
  // Lengths in characters as a person counts them, not UTF-16 units.
  const length = [...value].length
  if (field.minLength !== null && length < field.minLength)
    return `must be at least ${field.minLength} characters`
  if (field.maxLength !== null && length > field.maxLength)
    return `must be at most ${field.maxLength} characters`
  if (field.format && !fitsFormat(field.format, value))
    return `must be ${FORMAT_NAMES[field.format]}`
  return null
}

function fitsFormat(format: keyof typeof FORMAT_NAMES, value: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
    case 'uri':
      return /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value)
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value)
    case 'date-time':
      return (
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
        isRealDate(value.slice(0, 10))
      )
  }
}

/** 2026-02-30 has the right shape but is no day. */
function isRealDate(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}
