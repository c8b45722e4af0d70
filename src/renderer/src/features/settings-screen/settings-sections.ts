/** One entry of the section list in Settings: where it scrolls to and what it is called. */
export interface SettingsSection {
  id: SectionId
  label: string
}

export type SectionId =
  | 'providers'
  | 'models'
  | 'permissions'
  | 'mcp'
  | 'web'
  | 'memory'
  | 'skills'
  | 'appearance'
  | 'notifications'

/** The map of Settings, in page order; the first run shows only the first three. */
export const settingsSections: readonly SettingsSection[] = [
  { id: 'providers', label: 'Providers' },
  { id: 'models', label: 'Models' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'mcp', label: 'MCP servers' },
  { id: 'web', label: 'Web' },
  { id: 'memory', label: 'Memory' },
  { id: 'skills', label: 'Skills and commands' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'notifications', label: 'Notifications' }
]

/** The DOM id of a section's block, for the list's links. */
export function sectionElementId(id: SectionId): string {
  return `settings-section-${id}`
}

/**
 * The section being read: the last one whose top has passed the reading line (a little below the
 * top of the scroll area), or the first. `tops` are the blocks' offsets in page order.
 */
export function currentSection(
  tops: readonly { id: SectionId; top: number }[],
  scrollTop: number,
  atBottom: boolean
): SectionId | null {
  if (tops.length === 0) return null
  // At the very end the last short sections can never reach the line; the last one is read.
  if (atBottom) return tops[tops.length - 1]?.id ?? null
  const line = scrollTop + 48
  let current = tops[0]?.id ?? null
  for (const entry of tops) if (entry.top <= line) current = entry.id
  return current
}
