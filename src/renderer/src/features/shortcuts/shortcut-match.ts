/** Where the app runs, as far as its keyboard goes: Cmd on a Mac, Ctrl everywhere else. */
export type Platform = 'mac' | 'other'

/** The app's own Ctrl/Cmd chords. */
export type ShortcutId =
  'new-session' | 'palette' | 'find' | 'settings' | 'focus-composer' | 'sidebar'

/** The parts of a KeyboardEvent a shortcut is read from (a plain object in tests). */
export interface KeyLike {
  key: string
  code?: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
  isComposing?: boolean
  keyCode?: number
}

/** Each chord: the key as a Latin layout types it, and the physical key for any other layout. */
const chords: readonly { id: ShortcutId; key: string; code: string }[] = [
  { id: 'new-session', key: 'n', code: 'KeyN' },
  { id: 'palette', key: 'k', code: 'KeyK' },
  { id: 'find', key: 'f', code: 'KeyF' },
  { id: 'settings', key: ',', code: 'Comma' },
  { id: 'focus-composer', key: 'l', code: 'KeyL' },
  { id: 'sidebar', key: 'b', code: 'KeyB' }
]

/** Chrome reports a key that an input method is still composing as 229 ("Process"). */
const IME_KEY_CODE = 229

/** Mac for what `navigator.userAgentData.platform` or `navigator.platform` says of one. */
export function platformOf(reported: string): Platform {
  return /mac|iphone|ipad|ipod/i.test(reported) ? 'mac' : 'other'
}

/** This page's platform. */
export function currentPlatform(): Platform {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  return platformOf(nav.userAgentData?.platform || nav.platform || '')
}

/**
 * The shortcut a key press means, or null. Only the platform's one modifier counts (Cmd on a
 * Mac, Ctrl elsewhere: Ctrl+K on a Mac is the text field's "delete to the end of the line"), with
 * no Shift or Alt; and nothing while an input method is composing, where the keys belong to it.
 */
export function matchShortcut(event: KeyLike, platform: Platform): ShortcutId | null {
  if (event.isComposing || event.keyCode === IME_KEY_CODE) return null
  const mod = platform === 'mac' ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
  if (!mod || event.altKey || event.shiftKey) return null
  const typed = event.key.toLowerCase()
  // A key that types no Latin letter or comma (Cyrillic, Greek…) is read by where it sits.
  const latin = /^[a-z,]$/.test(typed)
  const chord = chords.find((c) => (latin ? c.key === typed : c.code === event.code))
  return chord?.id ?? null
}

/** How the shortcut is written for this platform: ⌘K on a Mac, Ctrl+K elsewhere. */
export function shortcutLabel(id: ShortcutId, platform: Platform): string {
  const key = (chords.find((c) => c.id === id)?.key ?? '').toUpperCase()
  return platform === 'mac' ? `⌘${key}` : `Ctrl+${key}`
}
