import { describe, expect, it } from 'vitest'
import { cachedChoice, resolveTheme, themeChoiceOf, withTheme } from './theme'

describe('themeChoiceOf', () => {
  it('reads the choice the settings hold', () => {
    expect(themeChoiceOf({ appearance: { theme: 'dark' } })).toBe('dark')
    expect(themeChoiceOf({ appearance: { theme: 'light' } })).toBe('light')
    expect(themeChoiceOf({ appearance: { theme: 'system' } })).toBe('system')
  })

  it('follows the system when the settings say nothing or something it cannot read', () => {
    for (const appearance of [undefined, null, 'dark', 7, {}, { theme: 'DARK' }, { theme: 1 }]) {
      expect(themeChoiceOf({ appearance }), JSON.stringify(appearance)).toBe('system')
    }
    expect(themeChoiceOf({})).toBe('system')
  })
})

describe('withTheme', () => {
  it('sets the theme and keeps whatever else the appearance entry holds', () => {
    expect(withTheme({}, 'dark')).toEqual({ theme: 'dark' })
    expect(withTheme({ appearance: { theme: 'dark' } }, 'system')).toEqual({ theme: 'system' })
    expect(withTheme({ appearance: { theme: 'light', other: 1 } }, 'dark')).toEqual({
      theme: 'dark',
      other: 1
    })
    expect(withTheme({ appearance: 'broken' }, 'light')).toEqual({ theme: 'light' })
  })
})

describe('resolveTheme', () => {
  it('takes an explicit choice whatever the system says', () => {
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('follows the system for "system"', () => {
    expect(resolveTheme('system', true)).toBe('dark')
    expect(resolveTheme('system', false)).toBe('light')
  })
})

describe('cachedChoice', () => {
  it('takes only a choice it knows from the page cache', () => {
    expect(cachedChoice('dark')).toBe('dark')
    expect(cachedChoice('light')).toBe('light')
    for (const raw of [null, '', 'Dark', '"dark"', 'dark ', 'sepia']) {
      expect(cachedChoice(raw), String(raw)).toBe('system')
    }
  })
})
