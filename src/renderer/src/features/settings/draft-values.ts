import { z } from 'zod'
import { settingsSchema } from '../../../../shared/settings'

// Providers and the default model are not in the draft: the window edits them as form text
// (settings-model's `ProviderDraft`), turned into settings when Save builds the file.
const { providers: _providers, default_model: _defaultModel, ...draftShape } = settingsSchema.shape

/** Each setting the draft holds, checked alone: the file's cross-setting checks run on Save. */
const draftValuesSchema = z.strictObject(draftShape).partial()

/** Each setting in the file's own shape (`z.input`), so what a default fills in stays out of it. */
export type DraftValues = z.input<typeof draftValuesSchema>
export type DraftKey = keyof DraftValues

/**
 * The settings file as the window edits it. Every setting the schema reads is typed. A setting it
 * does not read as it stands (a typo made in an editor, a backend whose address is half typed) is
 * kept verbatim under `unread`: Save sends it back, so the main process names the problem with
 * the same schema and nothing the person wrote is lost. An edit that reads moves it to `values`.
 */
export interface SettingsDraft {
  values: DraftValues
  unread: Readonly<Record<string, unknown>>
  /** The file's top-level keys in its order, so Save writes each back where the person put it. */
  order: readonly string[]
}

export const emptySettingsDraft: SettingsDraft = { values: {}, unread: {}, order: [] }

/** Whether `value` is what `schema` reads, typed as its input: the file's shape, not the parse's. */
export function readsAs<S extends z.ZodType>(schema: S, value: unknown): value is z.input<S> {
  return schema.safeParse(value).success
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

function isDraftKey(key: string): key is DraftKey {
  return Object.hasOwn(draftShape, key)
}

function withoutValue(values: DraftValues, key: string): DraftValues {
  const next = { ...values }
  if (isDraftKey(key)) delete next[key]
  return next
}

// Entries rather than assignment, so a key named __proto__ stays a key.
function withoutEntry(
  record: Readonly<Record<string, unknown>>,
  key: string
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key))
}

/**
 * The draft with one setting put anew: typed when the schema reads it, kept under `unread`
 * otherwise; `undefined` takes it out of the file.
 */
export function withSetting(draft: SettingsDraft, key: string, value: unknown): SettingsDraft {
  let values = withoutValue(draft.values, key)
  let unread = withoutEntry(draft.unread, key)
  const setting = Object.fromEntries([[key, value]])
  if (value !== undefined) {
    if (readsAs(draftValuesSchema, setting)) values = { ...values, ...setting }
    else unread = { ...unread, ...setting }
  }
  const order =
    value === undefined || draft.order.includes(key) ? draft.order : [...draft.order, key]
  return { values, unread, order }
}

/** The draft of a settings file as read; providers and the default model are read elsewhere. */
export function draftFromFile(raw: unknown): SettingsDraft {
  const file = isRecord(raw) ? raw : {}
  let draft: SettingsDraft = { ...emptySettingsDraft, order: Object.keys(file) }
  for (const [key, value] of Object.entries(file)) {
    if (key !== 'providers' && key !== 'default_model') draft = withSetting(draft, key, value)
  }
  return draft
}

/** One setting as the draft holds it, whether the schema reads it or not. */
export function settingOf(draft: SettingsDraft, key: DraftKey): unknown {
  return Object.hasOwn(draft.unread, key) ? draft.unread[key] : draft.values[key]
}

const files = new WeakMap<SettingsDraft, Record<string, unknown>>()

/**
 * The draft's settings as one object, for editors that read their section leniently. The same
 * object for the same draft, so it can be selected from the store without re-rendering.
 */
export function fileOf(draft: SettingsDraft): Record<string, unknown> {
  const known = files.get(draft)
  if (known) return known
  const file = Object.fromEntries(
    [...Object.entries(draft.values), ...Object.entries(draft.unread)].filter(
      ([, value]) => value !== undefined
    )
  )
  files.set(draft, file)
  return file
}
