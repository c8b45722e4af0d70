import { describe, expect, it } from 'vitest'
import { Catalog } from '../catalog'
import { fsTools } from './index'

describe('fsTools', () => {
  const catalog = new Catalog(fsTools())

  it('declares what each tool may do', () => {
    const byName = Object.fromEntries(catalog.describe().map((tool) => [tool.name, tool]))
    for (const name of ['Read', 'ListDir', 'Glob', 'Grep']) {
      expect(byName[name]?.readOnly, name).toBe(true)
      expect(byName[name]?.capabilities, name).toEqual({
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      })
    }
    for (const name of ['Write', 'Edit', 'Copy', 'Move', 'Remove']) {
      expect(byName[name]?.readOnly, name).toBe(false)
      expect(byName[name]?.capabilities, name).toEqual({
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: true
      })
    }
    expect(catalog.list().every((tool) => tool.source === 'builtin')).toBe(true)
  })

  it('tells the model snake_case inputs with their required fields and defaults', () => {
    const schemas = Object.fromEntries(catalog.modelSchemas().map((s) => [s.name, s.inputSchema]))
    // Sorted by name, as they are sent; a tool added to the family brings its own test.
    const names = Object.keys(schemas)
    expect(names).toEqual([...names].sort())
    const family = ['Copy', 'Edit', 'Glob', 'Grep', 'ListDir', 'Move', 'Read', 'Remove', 'Write']
    expect(names).toEqual(expect.arrayContaining(family))
    expect(schemas.Edit).toMatchObject({
      type: 'object',
      required: ['path', 'old', 'new'],
      additionalProperties: false,
      properties: { replace_all: { type: 'boolean', default: false } }
    })
    // Images take no offset or limit, so Read must see whether they were given: no defaults.
    expect(schemas.Read).toMatchObject({
      required: ['path'],
      properties: { offset: { type: 'integer' }, limit: { type: 'integer' } }
    })
    expect(schemas.Read?.properties).not.toHaveProperty('offset.default')
    expect(schemas.Glob).toMatchObject({
      required: ['pattern'],
      properties: { include_ignored: { default: false }, limit: { default: 1000 } }
    })
    expect(schemas.Grep).toMatchObject({
      required: ['pattern'],
      properties: { literal: { default: false }, context: { default: 0, maximum: 10 } }
    })
    expect(schemas.Copy).toMatchObject({ required: ['source', 'destination'] })
    expect(schemas.Move).toMatchObject({ required: ['source', 'destination'] })
    expect(schemas.Remove).toMatchObject({ required: ['path'] })
    expect(schemas.Write).toMatchObject({ required: ['path', 'content'] })
    expect(schemas.ListDir).toMatchObject({ properties: { path: { default: '.' } } })
  })

  it('rejects a misspelt field rather than silently ignoring it', () => {
    const edit = catalog.get('Edit')
    const parsed = edit?.inputSchema.safeParse({ path: 'x', old: 'a', new: 'b', replaceAll: true })
    expect(parsed?.success).toBe(false)
  })
})
