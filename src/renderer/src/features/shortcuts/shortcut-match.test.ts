import { describe, expect, it } from 'vitest'
import { matchShortcut, platformOf, shortcutLabel, type KeyLike } from './shortcut-match'

function key(init: Partial<KeyLike> & { key: string }): KeyLike {
  return { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...init }
}

describe('matchShortcut', () => {
  it('takes Ctrl away from a Mac and Cmd everywhere else', () => {
    expect(matchShortcut(key({ key: 'k', ctrlKey: true }), 'other')).toBe('palette')
    expect(matchShortcut(key({ key: 'k', metaKey: true }), 'mac')).toBe('palette')
    expect(matchShortcut(key({ key: 'k', metaKey: true }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'k', ctrlKey: true }), 'mac')).toBeNull()
  })

  it('knows every shortcut of the app', () => {
    const ids = ['n', 'k', 'f', ',', 'l', 'b'].map((k) =>
      matchShortcut(key({ key: k, ctrlKey: true }), 'other')
    )
    expect(ids).toEqual(['new-session', 'palette', 'find', 'settings', 'focus-composer', 'sidebar'])
    // Ctrl/Cmd+B by where the key sits, on a layout that types no Latin letter there.
    expect(matchShortcut(key({ key: 'и', code: 'KeyB', ctrlKey: true }), 'other')).toBe('sidebar')
    expect(shortcutLabel('sidebar', 'mac')).toBe('⌘B')
  })

  it('never fires while an IME composition is in progress', () => {
    expect(matchShortcut(key({ key: 'k', ctrlKey: true, isComposing: true }), 'other')).toBeNull()
    // Some browsers report the composition only by keyCode 229, with the key as "Process".
    expect(matchShortcut(key({ key: 'k', ctrlKey: true, keyCode: 229 }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'Process', ctrlKey: true, keyCode: 229 }), 'other')).toBeNull()
  })

  it('leaves other chords to the page and the system', () => {
    expect(matchShortcut(key({ key: 'k' }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'k', ctrlKey: true, shiftKey: true }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'k', ctrlKey: true, altKey: true }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'k', ctrlKey: true, metaKey: true }), 'mac')).toBeNull()
    expect(matchShortcut(key({ key: 'x', ctrlKey: true }), 'other')).toBeNull()
    expect(matchShortcut(key({ key: 'Control', ctrlKey: true }), 'other')).toBeNull()
  })

  it('reads caps lock and other keyboard layouts by the physical key', () => {
    expect(matchShortcut(key({ key: 'K', ctrlKey: true }), 'other')).toBe('palette')
    // A Russian layout types "л" on the K key.
    expect(matchShortcut(key({ key: 'л', code: 'KeyK', ctrlKey: true }), 'other')).toBe('palette')
    expect(matchShortcut(key({ key: 'б', code: 'Comma', ctrlKey: true }), 'other')).toBe('settings')
    // A Latin letter is taken as typed: Dvorak's K sits where QWERTY has V.
    expect(matchShortcut(key({ key: 'k', code: 'KeyV', ctrlKey: true }), 'other')).toBe('palette')
  })
})

describe('shortcutLabel', () => {
  it('shows the modifier of the platform', () => {
    expect(shortcutLabel('palette', 'mac')).toBe('⌘K')
    expect(shortcutLabel('palette', 'other')).toBe('Ctrl+K')
    expect(shortcutLabel('settings', 'other')).toBe('Ctrl+,')
  })
})

describe('platformOf', () => {
  it('tells a Mac from the rest by what the browser reports', () => {
    expect(platformOf('MacIntel')).toBe('mac')
    expect(platformOf('macOS')).toBe('mac')
    expect(platformOf('iPad')).toBe('mac')
    expect(platformOf('Linux x86_64')).toBe('other')
    expect(platformOf('Win32')).toBe('other')
    expect(platformOf('')).toBe('other')
  })
})
