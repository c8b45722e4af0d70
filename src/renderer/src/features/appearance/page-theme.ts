import { useSyncExternalStore } from 'react'
import { fileOf, onSettingsChanged, settingsNow } from '../settings'
import {
  cachedChoice,
  resolveTheme,
  themeChoiceOf,
  type ResolvedTheme,
  type ThemeChoice
} from './theme'

/** Where the last choice is kept, so the next load paints in it before the settings arrive. */
export const THEME_STORAGE_KEY = 'mecatl.theme'
const DARK_QUERY = '(prefers-color-scheme: dark)'

let painted: ResolvedTheme = 'light'
const listeners = new Set<() => void>()
let wired = false

function readCache(): string | null {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY)
  } catch {
    // Storage can be refused (a locked-down profile): the settings still decide once loaded.
    return null
  }
}

function writeCache(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice)
  } catch {
    // As above: only the next load's first frame depends on it.
  }
}

function paint(theme: ResolvedTheme): void {
  const root = document.documentElement
  root.dataset.theme = theme
  root.style.colorScheme = theme
  if (theme === painted && wired) return
  painted = theme
  listeners.forEach((listener) => listener())
}

/**
 * Paints the page in the chosen theme and keeps it so: at once from the last run's choice (no
 * flash of the other theme while the settings load), then from the settings as they load and
 * change, and live as the system switches between light and dark. Call once, before rendering.
 */
export function wireTheme(): void {
  if (wired) return
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null
  let choice = cachedChoice(readCache())
  const repaint = (): void => paint(resolveTheme(choice, media?.matches ?? false))
  repaint()
  wired = true
  media?.addEventListener('change', repaint)
  const follow = (status: string, base: Record<string, unknown>): void => {
    // Before the settings are read (or when they cannot be), the cached choice stands.
    if (status !== 'ready') return
    const next = themeChoiceOf(base)
    if (next === choice) return
    choice = next
    writeCache(next)
    repaint()
  }
  const state = settingsNow()
  follow(state.status, fileOf(state.draft))
  onSettingsChanged((now) => follow(now.status, fileOf(now.draft)))
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The theme the page is painted in now. */
export function currentTheme(): ResolvedTheme {
  return painted
}

/** The painted theme, re-rendering when it changes (for what CSS cannot reach, like xterm). */
export function useResolvedTheme(): ResolvedTheme {
  return useSyncExternalStore(subscribe, currentTheme, currentTheme)
}
