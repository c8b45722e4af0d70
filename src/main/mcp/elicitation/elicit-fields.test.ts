import { describe, expect, it } from 'vitest'
import { elicitContentProblem } from '../../../shared/elicitation'
import { elicitFields } from './elicit-fields'

describe('a form request', () => {
  it('is refused whole, naming the property, when it is not a flat form', () => {
    expect(() => elicitFields({ type: 'array' })).toThrow(/must be an object schema/)
    expect(() => elicitFields({ type: 'object', properties: { a: { type: 'object' } } })).toThrow(
      /property "a" has the type "object"/
    )
    expect(() =>
      elicitFields({
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string' } } }
      })
    ).toThrow(/property "tags" is a list whose items are not a list of choices/)
    expect(() => elicitFields({ type: 'object', properties: {}, required: ['ghost'] })).toThrow(
      /requires "ghost", which it does not describe/
    )
    expect(() =>
      elicitFields({ type: 'object', properties: { w: { type: 'string', format: 'hostname' } } })
    ).toThrow(/format "hostname"/)
  })

  it('drops a default the field cannot hold', () => {
    const [choice, count] = elicitFields({
      type: 'object',
      properties: {
        c: { type: 'string', enum: ['a'], default: 'zzz' },
        n: { type: 'integer', default: 1.5 }
      }
    })
    expect(choice).toMatchObject({ kind: 'choice', default: null })
    expect(count).toMatchObject({ kind: 'number', default: null })
  })

  it('checks formats and lengths as a person counts them', () => {
    const fields = elicitFields({
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        home: { type: 'string', format: 'uri' },
        nick: { type: 'string', maxLength: 2 }
      }
    })
    expect(elicitContentProblem(fields, { mail: 'ada@example' })).toMatch(/an email address/)
    expect(elicitContentProblem(fields, { day: '2026-02-30' })).toMatch(/“day” must be a date/)
    expect(elicitContentProblem(fields, { at: '2026-02-03 10:00' })).toMatch(/date and time/)
    expect(elicitContentProblem(fields, { home: 'not a uri' })).toMatch(/URI/)
    // Two emoji are two characters, though four UTF-16 units.
    expect(elicitContentProblem(fields, { nick: '🙂🙂' })).toBeNull()
    expect(elicitContentProblem(fields, { nick: '🙂🙂🙂' })).toMatch(/at most 2 characters/)
    expect(
      elicitContentProblem(fields, {
        mail: 'ada@example.com',
        day: '2024-02-29',
        at: '2026-02-03T10:00:00Z',
        home: 'https://example.com/x'
      })
    ).toBeNull()
  })
})
