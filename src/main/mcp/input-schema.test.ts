import { describe, expect, it } from 'vitest'
import { MAX_SCHEMA_DEPTH, mcpInputSchema, schemaProblem } from './input-schema'

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' }
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { next: schema } }
  return schema
}

describe('schemaProblem', () => {
  it.each([
    [{ type: 'object', $ref: '#' }, '$ref "#"'],
    [{ type: 'object', anyOf: [{ $ref: '#' }, { type: 'string' }] }, '$ref "#"'],
    [
      {
        type: 'object',
        $ref: '#/$defs/a',
        $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }
      },
      '$ref'
    ],
    [{ type: 'object', properties: { x: { $ref: '#/properties/x' } } }, '$ref "#/properties/x"'],
    [{ type: 'object', not: { $ref: '#' } }, '$ref "#"']
  ])('finds a loop that never reaches a smaller part of the input: %j', (schema, via) => {
    expect(schemaProblem(schema)).toContain(`refers to itself without end (${via}`)
  })

  it.each([
    {
      type: 'object',
      properties: { child: { $ref: '#' }, children: { type: 'array', items: { $ref: '#' } } }
    },
    {
      type: 'object',
      $ref: '#/$defs/node',
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }
    },
    {
      type: 'object',
      properties: { a: { $ref: '#/$defs/missing' }, b: { $ref: 'https://example.com/s' } }
    },
    nested(Math.floor(MAX_SCHEMA_DEPTH / 2) - 1)
  ])('leaves recursion through the input, and ordinary schemas, alone: %#', (schema) => {
    expect(schemaProblem(schema)).toBeNull()
  })

  it('refuses a schema nested past the limit without running out of stack', () => {
    expect(schemaProblem(nested(10_000))).toBe(
      `it is nested more than ${MAX_SCHEMA_DEPTH} levels deep`
    )
  })
})

describe('mcpInputSchema', () => {
  it('checks arguments against a readable schema, and an unusable one against nothing', () => {
    const ok = mcpInputSchema({ type: 'object', properties: { n: { type: 'number' } } })
    expect(ok.unusable).toBeNull()
    expect(ok.schema.safeParse({ n: 'x' }).success).toBe(false)
    const looped = mcpInputSchema({ type: 'object', $ref: '#' })
    expect(looped.unusable).toContain('refers to itself')
    expect(looped.schema.safeParse({}).success).toBe(true)
  })

  it('answers an input too deep to check with an issue, never a RangeError', () => {
    const tree = mcpInputSchema({ type: 'object', properties: { child: { $ref: '#' } } })
    let input: Record<string, unknown> = {}
    for (let i = 0; i < 20_000; i++) input = { child: input }
    const result = tree.schema.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toContain('nested too deeply')
    expect(tree.schema.safeParse({ child: { child: {} } }).success).toBe(true)
  })
})
