import { describe, expect, it } from 'vitest'
import { draftFromFile, fileOf, settingOf, withSetting } from './draft-values'
import { buildSettings, readSettings } from './settings-model'

describe('the typed settings draft', () => {
  it('holds each setting the schema reads as the file writes it, defaults left out', () => {
    const draft = draftFromFile({ sandbox: { network: 'allowlist' }, max_tokens: 1000 })
    expect(draft.values).toEqual({ sandbox: { network: 'allowlist' }, max_tokens: 1000 })
    expect(draft.unread).toEqual({})
  })

  it('keeps a setting it cannot read verbatim, and a key the schema does not know', () => {
    const broken = { backends: [{ kind: 'http', url: 'half typ' }] }
    const draft = draftFromFile({ websearch: broken, shel: { enabled: false } })
    expect(draft.values).toEqual({})
    expect(draft.unread).toEqual({ websearch: broken, shel: { enabled: false } })
    expect(settingOf(draft, 'websearch')).toBe(broken)
    expect(fileOf(draft)).toEqual({ websearch: broken, shel: { enabled: false } })
  })

  it('moves a setting to the typed values once an edit makes it read, and back', () => {
    const typing = withSetting(draftFromFile({}), 'websearch', {
      backends: [{ kind: 'http', url: 'https://search.example' }]
    })
    expect(typing.values.websearch?.backends?.[0]).toMatchObject({ url: 'https://search.example' })
    const half = withSetting(typing, 'websearch', { backends: [{ kind: 'http', url: 'https:' }] })
    expect(half.values).not.toHaveProperty('websearch')
    expect(half.unread.websearch).toEqual({ backends: [{ kind: 'http', url: 'https:' }] })
    expect(withSetting(half, 'websearch', undefined)).toMatchObject({ values: {}, unread: {} })
  })

  it('gives the same object for the same draft, so a store selector is stable', () => {
    const draft = draftFromFile({ max_tokens: 1000 })
    expect(fileOf(draft)).toBe(fileOf(draft))
  })

  it('writes every key back where the file had it', () => {
    const file = {
      max_tokens: 1000,
      providers: [],
      mcp: [],
      permissions: { mode: 'ask' },
      appearance: { theme: 'dark' }
    }
    const view = readSettings(file)
    expect(Object.keys(buildSettings(view, view.providers))).toEqual(Object.keys(file))
  })

  it('keeps a key named __proto__ as a key', () => {
    const draft = withSetting(draftFromFile({}), '__proto__', { x: 1 })
    expect(Object.keys(fileOf(draft))).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(fileOf(draft))).toBe(Object.prototype)
  })
})
