// docs/settings-reference.md is generated from the settings schema; this fails when the committed
// page and the schema have drifted apart, and checks how keys, defaults and comments are read.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { settingsSchema } from '../src/shared/settings'
import { describeKeys, escapeText, type Entry } from './describe-schema'
import { SchemaSources } from './schema-doc-comments'
import { REFERENCE_COMMAND, REFERENCE_PAGE, settingsReference } from './settings-reference'

const root = path.resolve(import.meta.dirname, '..')

describe('docs/settings-reference.md', () => {
  it('is what the generator makes from the schema now', async () => {
    const committed = readFileSync(path.join(root, REFERENCE_PAGE), 'utf8')
    const fresh = await settingsReference(root)
    expect(
      committed,
      `${REFERENCE_PAGE} is out of date with src/shared/settings.ts: run \`${REFERENCE_COMMAND}\` and commit the page`
    ).toBe(fresh)
  })

  it('names every key of the settings schema, at every depth', () => {
    const page = readFileSync(path.join(root, REFERENCE_PAGE), 'utf8')
    // A key is a heading, a bullet, or (the key that tells a union's forms apart) a form's label.
    const shown = (name: string): boolean =>
      [`## \`${name}\``, `- \`${name}\`:`, `- \`${name}: `].some((form) => page.includes(form))
    const missing = keyNames(settingsSchema).filter((name) => !shown(name))
    expect(missing).toEqual([])
  })
})

/** Every key of every object in a schema, found by a walk of its own (not the generator's). */
function keyNames(schema: z.core.$ZodType): string[] {
  const def = schema._zod.def as {
    type: string
    innerType?: z.core.$ZodType
    element?: z.core.$ZodType
    valueType?: z.core.$ZodType
    options?: readonly z.core.$ZodType[]
    shape?: Record<string, z.core.$ZodType>
  }
  const inner = [def.innerType, def.element, def.valueType, ...(def.options ?? [])]
  const own = Object.entries(def.shape ?? {}).flatMap(([name, child]) => [name, ...keyNames(child)])
  return [...own, ...inner.flatMap((child) => (child ? keyNames(child) : []))]
}

// A schema written across two files, as src/shared writes them: constants, an import, a spread of
// shared keys, a list of values named elsewhere, and a key borrowed through `.shape`.
const sources = new SchemaSources(
  new Map([
    [
      'src/x/b.ts',
      `import { z } from 'zod'
/** Where a thing lives. */
export const places = ['here', 'there'] as const
const keyFields = {
  /** The variable holding the key. */
  key_env: z.string().optional()
}
/** One backend. */
export const backendSchema = z.object({ kind: z.literal('a'), ...keyFields }).strict()
export const flags = z.object({
  /** Turned on. */
  on: z.boolean()
})
`
    ],
    [
      'src/x/a.ts',
      `import { z } from 'zod'
import { backendSchema, flags, places } from './b'
export const rootSchema = z
  .object({
    /** How many. */
    count: z.number().int().min(1).max(9).default(3),
    place: z.enum(places).optional(),
    backends: z.array(backendSchema).default([]),
    on: flags.shape.on.optional(),
    name: z.string().regex(/^[a-z]+$/, 'use lowercase letters').min(1)
  })
  .strict()
`
    ]
  ])
)
const places = ['here', 'there'] as const
const rootSchema = z
  .object({
    count: z.number().int().min(1).max(9).default(3),
    place: z.enum(places).optional(),
    backends: z
      .array(z.object({ kind: z.literal('a'), key_env: z.string().optional() }).strict())
      .default([]),
    on: z.boolean().optional(),
    name: z
      .string()
      .regex(/^[a-z]+$/, 'use lowercase letters')
      .min(1)
  })
  .strict()

const byName = (entries: readonly Entry[], name: string): Entry | undefined =>
  entries.find((entry) => entry.name === name)

describe('describeKeys', () => {
  const keys = describeKeys(rootSchema, sources, 'src/x/a.ts', 'rootSchema')

  it('says what each key takes, its default, and whether it may be left out', () => {
    expect(keys.map((k) => [k.name, k.summary])).toEqual([
      ['count', 'integer ≥ 1, ≤ 9; default `3`'],
      ['place', 'one of `here`, `there`; optional'],
      ['backends', 'list of objects; default `[]`'],
      ['on', '`true` or `false`; optional'],
      ['name', 'text, matching `^[a-z]+$` (“use lowercase letters”), not empty; required']
    ])
  })

  it('takes comments from the key, the constants it is built from and the list of its values', () => {
    expect(byName(keys, 'count')?.docs).toEqual(['How many.'])
    expect(byName(keys, 'place')?.docs).toEqual(['Where a thing lives.'])
    expect(byName(keys, 'backends')?.docs).toEqual(['One backend.'])
    expect(byName(keys, 'on')?.docs).toEqual(['Turned on.'])
  })

  it('follows imports and spreads into the keys of nested objects', () => {
    const backend = byName(keys, 'backends')?.children ?? []
    expect(backend.map((k) => [k.name, k.summary, k.docs])).toEqual([
      ['kind', '`a`; required', []],
      ['key_env', 'text; optional', ['The variable holding the key.']]
    ])
  })

  it('refuses a kind of schema it cannot describe, naming the key', () => {
    const odd = z.object({ when: z.date() })
    const oddSources = new SchemaSources(
      new Map([['src/x/c.ts', 'export const odd = z.object({ when: z.date() })\n']])
    )
    expect(() => describeKeys(odd, oddSources, 'src/x/c.ts', 'odd')).toThrow(
      /^when: the settings reference cannot describe a zod date schema/
    )
  })
})

describe('escapeText', () => {
  it('keeps code spans and escapes what Markdown would take for HTML or emphasis', () => {
    expect(escapeText('tools are named mcp__<server>__<tool>, see `mcp__a__*`')).toBe(
      'tools are named mcp\\_\\_\\<server>\\_\\_\\<tool>, see `mcp__a__*`'
    )
    expect(escapeText('EXA_API_KEY and LC_*')).toBe('EXA_API_KEY and LC\\_\\*')
  })
})
