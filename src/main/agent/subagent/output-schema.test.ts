import { describe, expect, it } from 'vitest'
import { compileOutputSchema, MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH } from './output-schema'

const counted = {
  type: 'object',
  properties: { count: { type: 'integer' }, files: { type: 'array', items: { type: 'string' } } },
  required: ['count'],
  additionalProperties: false
}

async function checker(schema: Record<string, unknown>): Promise<(answer: string) => unknown> {
  const compiled = await compileOutputSchema(schema)
  if (!compiled.ok) throw new Error(compiled.why)
  return compiled.check
}

describe('an output_schema', () => {
  it('passes JSON that satisfies it, bare or in one code fence, as compact JSON', async () => {
    const check = await checker(counted)
    expect(check('{"count": 3, "files": ["a.ts"]}')).toEqual({
      ok: true,
      json: '{"count":3,"files":["a.ts"]}'
    })
    expect(check('```json\n{ "count": 0 }\n```')).toEqual({ ok: true, json: '{"count":0}' })
  })

  it('says what did not match, every mismatch at once', async () => {
    const verdict = (await checker(counted))('{"count": "three", "extra": true}')
    expect(verdict).toMatchObject({ ok: false })
    const why = (verdict as { why: string }).why
    expect(why).toMatch(/^the answer does not match output_schema: /)
    expect(why).toContain('/count must be integer')
    expect(why).toContain('must NOT have additional properties')
  })

  it('says when the answer is not JSON at all, or empty', async () => {
    expect((await checker(counted))('There are 3 files.')).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^the answer is not JSON/)
    })
    expect((await checker(counted))('  ')).toEqual({
      ok: false,
      why: 'the sub-agent gave no answer'
    })
  })

  it('refuses regular expressions anywhere, even where only a $ref would reach them', async () => {
    for (const schema of [
      { type: 'string', pattern: '^(a+)+$' },
      { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } },
      { $ref: '#/x', x: { pattern: '(a|aa)+$' } },
      { const: { pattern: '(a+)+$' }, $ref: '#/const' }
    ]) {
      const compiled = await compileOutputSchema(schema)
      expect(compiled).toMatchObject({
        ok: false,
        why: expect.stringMatching(/may not use `pattern/)
      })
    }
    // A property that is merely named "pattern" is fine.
    expect(
      (await compileOutputSchema({ type: 'object', properties: { pattern: { type: 'string' } } }))
        .ok
    ).toBe(true)
  })

  it('refuses $async, whose validator would answer with a promise that passes anything', async () => {
    expect(await compileOutputSchema({ $async: true, type: 'number' })).toMatchObject({
      ok: false,
      why: expect.stringContaining('$async')
    })
  })

  it('refuses a schema nested too deep or too long, before compiling it', async () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 5000; i++) deep = { type: 'array', items: deep }
    expect(await compileOutputSchema(deep)).toMatchObject({
      ok: false,
      why: expect.stringContaining(`more than ${MAX_SCHEMA_DEPTH} levels`)
    })
    const long = { enum: Array.from({ length: MAX_SCHEMA_CHARS / 4 }, (_, i) => `v${i}`) }
    expect(await compileOutputSchema(long)).toMatchObject({
      ok: false,
      why: expect.stringContaining(`keep it under ${MAX_SCHEMA_CHARS}`)
    })
  })

  it('refuses a reference it would have to fetch, and never fetches it', async () => {
    const compiled = await compileOutputSchema({ $ref: 'http://127.0.0.1:9/schema.json' })
    expect(compiled).toMatchObject({
      ok: false,
      why: expect.stringMatching(
        /^output_schema is not a JSON Schema that can be used: .*127\.0\.0\.1:9/
      )
    })
  })

  it('gives each call its own validator: one $id never stands for another call’s schema', async () => {
    const numbers = await checker({ $id: 'answer', type: 'number' })
    const strings = await checker({ $id: 'answer', type: 'string' })
    expect(numbers('3')).toMatchObject({ ok: true })
    expect(numbers('"x"')).toMatchObject({ ok: false })
    expect(strings('"x"')).toMatchObject({ ok: true })
    expect(strings('3')).toMatchObject({ ok: false })
  })
})
