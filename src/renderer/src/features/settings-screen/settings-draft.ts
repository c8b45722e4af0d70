import { buildSettings, isRecord, sameValue } from '../settings'
import { providersToSave, type SettingsState } from '../settings'
import { settingsSections, type SectionId } from './settings-sections'

/**
 * The section of the page each top-level settings key is edited in. A key not listed here is
 * still unsaved when it changed, only not put under a section name.
 */
const keySections: Record<string, SectionId> = {
  default_model: 'models',
  permissions: 'permissions',
  sandbox: 'permissions',
  shell: 'permissions',
  user_model: 'permissions',
  skills: 'permissions',
  checkpoints: 'permissions',
  mcp: 'mcp',
  websearch: 'web',
  appearance: 'appearance',
  notifications: 'notifications'
}

function providerList(settings: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(settings.providers) ? settings.providers.filter(isRecord) : []
}

// Prices live inside each provider but are edited under Models: compare them apart.
function withoutPrices(settings: Record<string, unknown>): Record<string, unknown>[] {
  return providerList(settings).map(({ prices: _prices, ...rest }) => rest)
}

function pricesOf(settings: Record<string, unknown>): unknown[] {
  return providerList(settings).map((p) => [p.id, p.prices])
}

/** What is not saved yet: the sections holding edits, in page order, and whether there are any. */
export interface Unsaved {
  sections: SectionId[]
  any: boolean
}

/**
 * Compares what Save would write now with what was last read or written. `rulesPending` is true
 * while project or session rules wait for Save (they are not kept in the settings file).
 */
export function unsavedChanges(state: SettingsState, rulesPending: boolean): Unsaved {
  if (state.status !== 'ready') return { sections: [], any: false }
  const now = buildSettings(state, providersToSave(state).providers)
  const saved = buildSettings(state.saved, state.saved.providers)
  const found = new Set<SectionId>()
  let any = false
  if (!sameValue(withoutPrices(now), withoutPrices(saved))) found.add('providers')
  if (!sameValue(pricesOf(now), pricesOf(saved))) found.add('models')
  const keys = new Set([...Object.keys(now), ...Object.keys(saved)])
  keys.delete('providers')
  for (const key of keys) {
    if (sameValue(now[key], saved[key])) continue
    any = true
    const section = keySections[key]
    if (section) found.add(section)
  }
  if (rulesPending) found.add('permissions')
  const sections = settingsSections.map((s) => s.id).filter((id) => found.has(id))
  return { sections, any: any || sections.length > 0 }
}

/** The Save bar's words: "Unsaved changes in Permissions, MCP servers". */
export function unsavedSummary(unsaved: Unsaved): string {
  if (!unsaved.any) return ''
  const labels = unsaved.sections.map(
    (id) => settingsSections.find((s) => s.id === id)?.label ?? id
  )
  return labels.length > 0 ? `Unsaved changes in ${labels.join(', ')}` : 'Unsaved changes'
}
