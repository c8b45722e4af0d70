import type { ModelRef } from '../../../../shared/domain'
import type { ProviderKind, SettingsIssue } from '../../../../shared/settings'
import { approvalModeOf } from './draft-lists'
import { draftFromFile, fileOf, settingOf, type SettingsDraft } from './draft-values'

/** A provider as the form edits it: every field a string, empty meaning "not set". */
export interface ProviderDraft {
  kind: ProviderKind
  id: string
  baseUrl: string
  keyEnv: string
  keySecret: string
  models: string[]
  /** Settings of the provider this form does not edit (`context_windows`), kept as they are. */
  extra?: Record<string, unknown>
}

export const providerKinds: { value: ProviderKind; label: string }[] = [
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'openai-compatible', label: 'OpenAI-compatible' }
]

const suggestedIds: Record<ProviderKind, string> = {
  anthropic: 'anthropic',
  openai: 'openai',
  'openai-compatible': 'local'
}

export const keyEnvPlaceholders: Record<ProviderKind, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': 'OPENROUTER_API_KEY (leave empty for local servers)'
}

/** A free id for a new provider of `kind`: "anthropic", then "anthropic-2"… */
export function suggestId(kind: ProviderKind, taken: readonly string[]): string {
  return freeId(suggestedIds[kind], taken)
}

/** `base` if no provider has it, else the first free "base-2", "base-3"… */
export function freeId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base
  let n = 2
  while (taken.includes(`${base}-${n}`)) n++
  return `${base}-${n}`
}

export function emptyDraft(kind: ProviderKind, taken: readonly string[]): ProviderDraft {
  return { kind, id: suggestId(kind, taken), baseUrl: '', keyEnv: '', keySecret: '', models: [] }
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function toKind(value: unknown): ProviderKind {
  return value === 'anthropic' || value === 'openai' || value === 'openai-compatible'
    ? value
    : 'openai-compatible'
}

/**
 * What the screen edits: the draft of every setting, and the providers and default model as their
 * form edits them, read leniently so a malformed file still shows what can be shown.
 */
export interface SettingsView {
  draft: SettingsDraft
  providers: ProviderDraft[]
  defaultModel: ModelRef | null
}

const formKeys = new Set(['kind', 'id', 'base_url', 'api_key_env', 'api_key_secret', 'models'])

function extraFields(provider: Record<string, unknown>): Record<string, unknown> | undefined {
  const extra = Object.fromEntries(Object.entries(provider).filter(([key]) => !formKeys.has(key)))
  return Object.keys(extra).length > 0 ? extra : undefined
}

export function readSettings(raw: unknown): SettingsView {
  const base = isRecord(raw) ? raw : {}
  const providers = Array.isArray(base.providers)
    ? base.providers.filter(isRecord).map((p) => ({
        kind: toKind(p.kind),
        id: text(p.id),
        baseUrl: text(p.base_url),
        keyEnv: text(p.api_key_env),
        keySecret: text(p.api_key_secret),
        models: Array.isArray(p.models)
          ? p.models.filter((m): m is string => typeof m === 'string')
          : [],
        extra: extraFields(p)
      }))
    : []
  const dm = isRecord(base.default_model) ? base.default_model : null
  const defaultModel =
    dm && text(dm.provider) && text(dm.model)
      ? { providerId: text(dm.provider), model: text(dm.model) }
      : null
  return { draft: draftFromFile(base), providers, defaultModel }
}

/** The settings-file shape of a provider; empty fields are left out rather than sent as "". */
export function providerToSettings(draft: ProviderDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { ...draft.extra, id: draft.id.trim(), kind: draft.kind }
  if (draft.baseUrl.trim()) out.base_url = draft.baseUrl.trim()
  if (draft.keyEnv.trim()) out.api_key_env = draft.keyEnv.trim()
  if (draft.keySecret.trim()) out.api_key_secret = draft.keySecret.trim()
  out.models = draft.models
  return out
}

/**
 * The whole settings object to save: the draft, the providers and the default model, each key
 * where the file had it. The approval mode is always written, so the file says what is in force.
 */
export function buildSettings(
  view: SettingsView,
  providers: ProviderDraft[]
): Record<string, unknown> {
  const { draft, defaultModel } = view
  const permissions = settingOf(draft, 'permissions')
  const built: Record<string, unknown> = {
    ...fileOf(draft),
    providers: providers.map(providerToSettings),
    permissions: { ...(isRecord(permissions) ? permissions : {}), mode: approvalModeOf(draft) },
    default_model: defaultModel
      ? { provider: defaultModel.providerId, model: defaultModel.model }
      : undefined
  }
  const keys = [...new Set([...draft.order, ...Object.keys(built)])]
  return Object.fromEntries(
    keys.flatMap((key) => (built[key] === undefined ? [] : [[key, built[key]]]))
  )
}

/** Every model of every provider, for the default-model picker. */
export function allModels(providers: readonly ProviderDraft[]): ModelRef[] {
  return providers.flatMap((p) =>
    p.id.trim() ? p.models.map((model) => ({ providerId: p.id.trim(), model })) : []
  )
}

export type ProviderField = 'kind' | 'id' | 'base_url' | 'api_key_env' | 'api_key_secret' | 'models'
const providerFields: readonly string[] = [
  'kind',
  'id',
  'base_url',
  'api_key_env',
  'api_key_secret',
  'models'
]

/** Sorts issues: the form's provider's fields, the default model, the mode, and the rest. */
export interface PlacedIssues {
  form: Partial<Record<ProviderField, string>>
  defaultModel: string | null
  mode: string | null
}

export function placeIssues(
  issues: readonly SettingsIssue[],
  formIndex: number | null
): PlacedIssues {
  const placed: PlacedIssues = { form: {}, defaultModel: null, mode: null }
  for (const issue of issues) {
    const parts = issue.path.replace(/^settings\./, '').split('.')
    if (parts[0] === 'default_model') placed.defaultModel ??= issue.message
    else if (parts[0] === 'permissions') placed.mode ??= issue.message
    else if (parts[0] === 'providers' && formIndex !== null && parts[1] === String(formIndex)) {
      const field = parts[2] ?? 'id'
      if (providerFields.includes(field)) placed.form[field as ProviderField] ??= issue.message
    }
  }
  return placed
}

/** Issues from `provider.test` (paths relative to the provider, maybe prefixed "provider."). */
export function placeProviderIssues(
  issues: readonly SettingsIssue[]
): Partial<Record<ProviderField, string>> {
  const form: Partial<Record<ProviderField, string>> = {}
  for (const issue of issues) {
    const field = issue.path.split('.').find((part) => providerFields.includes(part))
    if (field) form[field as ProviderField] ??= issue.message
  }
  return form
}

/** Deep equality of settings values: key order does not matter, array order does. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => sameValue(item, b[i]))
  }
  if (!isRecord(a) || !isRecord(b)) return false
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) if (!sameValue(a[key], b[key])) return false
  return true
}
