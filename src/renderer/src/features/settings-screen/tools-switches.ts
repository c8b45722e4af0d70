/** The tool families Settings → Tools turns on and off, each under its key in the settings file. */
export interface ToolSwitch {
  /** The settings key: `<key>: { enabled: false }` turns the family off. */
  key: 'shell' | 'user_model' | 'skills'
  label: string
  hint: string
}

export const toolSwitches: readonly ToolSwitch[] = [
  {
    key: 'shell',
    label: 'Shell',
    hint: 'Shell and ShellStatus: commands and background jobs in the project folder.'
  },
  {
    key: 'user_model',
    label: 'What Mecatl knows about you',
    hint: 'RememberUser and its twins: notes about you kept across projects.'
  },
  {
    key: 'skills',
    label: 'Skill tools',
    hint: 'Skill and SkillDraft: the model loads skills itself and saves drafts for you to review; slash commands work either way.'
  }
]

/** Whether a family is on in the file as it stands: `enabled` unless it says false. */
export function switchOn(base: Record<string, unknown>, key: ToolSwitch['key']): boolean {
  const entry = base[key]
  return !(isRecord(entry) && entry.enabled === false)
}

/** The file's entry for a family with `enabled` set; other keys of the entry are kept. */
export function withSwitch(
  base: Record<string, unknown>,
  key: ToolSwitch['key'],
  on: boolean
): Record<string, unknown> {
  const entry = isRecord(base[key]) ? { ...(base[key] as Record<string, unknown>) } : {}
  if (on) delete entry.enabled
  else entry.enabled = false
  return entry
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
