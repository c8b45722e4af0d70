import { describe, expect, it } from 'vitest'
import { Catalog } from '../catalog'
import { fsTools } from './index'

describe('fsTools', () => {
  const catalog = new Catalog(fsTools())

  it('declares what each tool may do', () => {
    const byName = Object.fromEntries(catalog.describe().map((tool) => [tool.name, tool]))
    for (const name of ['Read', 'ListDir']) {
      expect(byName[name]?.readOnly, name).toBe(true)
      expect(byName[name]?.capabilities, name).toEqual({
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      })
    }
    for (const name of ['Write', 'Edit']) {
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
    expect(Object.keys(schemas)).toEqual(['Edit', 'ListDir', 'Read', 'Write'])
    expect(schemas.Edit).toMatchObject({
      type: 'object',
      required: ['path', 'old', 'new'],
      additionalProperties: false,
      properties: { replace_all: { type: 'boolean', default: false } }
    })
    expect(schemas.Read).toMatchObject({
      required: ['path'],
      properties: { offset: { default: 1 }, limit: { default: 2000 } }
    })
    expect(schemas.Write).toMatchObject({ required: ['path', 'content'] })
    expect(schemas.ListDir).toMatchObject({ properties: { path: { default: '.' } } })
  })

  it('rejects a misspelt field rather than silently ignoring it', () => {
    const edit = catalog.get('Edit')
    const parsed = edit?.inputSchema.safeParse({ path: 'x', old: 'a', new: 'b', replaceAll: true })
    expect(parsed?.success).toBe(false)
  })
})
