import { themeChoiceSchema, type ThemeChoice } from '../../../../shared/appearance'

export type { ThemeChoice }

/** What the page is painted in: a choice of "system" resolves to one of these. */
export type ResolvedTheme = 'light' | 'dark'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The theme the settings ask for. Anything unreadable follows the system: the settings screen
 * reports the broken entry, and the window stays usable meanwhile.
 */
export function themeChoiceOf(base: Record<string, unknown>): ThemeChoice {
  const entry = base.appearance
  if (!isRecord(entry)) return 'system'
  const parsed = themeChoiceSchema.safeParse(entry.theme)
  return parsed.success ? parsed.data : 'system'
}

/** The `appearance` entry with `theme` set, keeping whatever else it holds. */
export function withTheme(
  base: Record<string, unknown>,
  theme: ThemeChoice
): Record<string, unknown> {
  const entry = base.appearance
  return { ...(isRecord(entry) ? entry : {}), theme }
}

/** The theme to paint: an explicit choice wins; "system" follows the system's dark setting. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): ResolvedTheme {
  if (choice === 'system') return systemDark ? 'dark' : 'light'
  return choice
}

/** The choice kept in the page's storage from the last run, read before the settings arrive. */
export function cachedChoice(raw: string | null): ThemeChoice {
  const parsed = themeChoiceSchema.safeParse(raw)
  return parsed.success ? parsed.data : 'system'
}
