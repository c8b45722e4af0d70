import {
  priceSettingsSchema,
  withModelPrice,
  type PriceSettings
} from '../../../../shared/model-prices'

/** A price a person set for one model of one provider (its `prices` entry). */
export interface PriceOverride {
  providerId: string
  kind: string
  model: string
  entry: PriceSettings
}

/** A provider of the settings file, as the price form offers it. */
export interface PricedProvider {
  id: string
  kind: string
  models: string[]
}

/** The price form's fields as typed: text, so a half-typed number is not lost. */
export interface PriceDraft {
  providerId: string
  model: string
  input: string
  output: string
  cacheRead: string
  cacheWrite: string
}

export type PriceField = keyof PriceDraft

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function providersOf(settings: unknown): Record<string, unknown>[] {
  if (!isRecord(settings) || !Array.isArray(settings.providers)) return []
  return settings.providers.filter(isRecord)
}

/** The settings' providers with an id, for the form's provider choice. */
export function pricedProviders(settings: unknown): PricedProvider[] {
  return providersOf(settings).flatMap((p) =>
    typeof p.id === 'string'
      ? [
          {
            id: p.id,
            kind: typeof p.kind === 'string' ? p.kind : '',
            models: Array.isArray(p.models)
              ? p.models.filter((m): m is string => typeof m === 'string')
              : []
          }
        ]
      : []
  )
}

/** Every valid `prices` entry of every provider; an entry that does not validate is skipped. */
export function priceOverrides(settings: unknown): PriceOverride[] {
  return providersOf(settings).flatMap((p) => {
    if (typeof p.id !== 'string' || !isRecord(p.prices)) return []
    const providerId = p.id
    const kind = typeof p.kind === 'string' ? p.kind : ''
    return Object.entries(p.prices).flatMap(([model, raw]) => {
      const parsed = priceSettingsSchema.safeParse(raw)
      return parsed.success ? [{ providerId, kind, model, entry: parsed.data }] : []
    })
  })
}

/**
 * The settings with the price of `model` at `providerId` set to `entry` (or removed, with null;
 * an emptied `prices` is removed too). Everything else is kept as it was. Throws when there is
 * no such provider, so a price is never written where no turn will find it.
 */
export function withPrice(
  settings: unknown,
  providerId: string,
  model: string,
  entry: PriceSettings | null
): Record<string, unknown> {
  if (!isRecord(settings) || !Array.isArray(settings.providers)) {
    throw new Error('The settings have no providers: add one under Providers first.')
  }
  let found = false
  const providers = settings.providers.map((p: unknown) => {
    if (!isRecord(p) || p.id !== providerId) return p
    found = true
    return withModelPrice(p, model, entry)
  })
  if (!found) {
    throw new Error(`There is no provider "${providerId}" any more: pick one from the list.`)
  }
  return { ...settings, providers }
}

const NUMBER = /^\s*\d+(\.\d+)?\s*$/

/** The draft as a `prices` entry, or what is wrong with each field that is wrong. */
export function parsePriceDraft(
  draft: PriceDraft
): { ok: true; entry: PriceSettings } | { ok: false; errors: Partial<Record<PriceField, string>> } {
  const errors: Partial<Record<PriceField, string>> = {}
  if (!draft.providerId) errors.providerId = 'Pick the provider whose bills this price is on.'
  if (!draft.model.trim()) errors.model = 'Give the model name exactly as the provider spells it.'
  const amount = (field: PriceField, optional: boolean): number | undefined => {
    const text = draft[field].trim()
    if (text === '' && optional) return undefined
    if (!NUMBER.test(text)) {
      errors[field] = 'Give US dollars per million tokens, such as 3 or 0.25.'
      return undefined
    }
    return Number(text)
  }
  const input = amount('input', false)
  const output = amount('output', false)
  const cacheRead = amount('cacheRead', true)
  const cacheWrite = amount('cacheWrite', true)
  if (Object.keys(errors).length > 0 || input === undefined || output === undefined) {
    return { ok: false, errors }
  }
  return {
    ok: true,
    entry: {
      input,
      output,
      ...(cacheRead === undefined ? {} : { cache_read: cacheRead }),
      ...(cacheWrite === undefined ? {} : { cache_write: cacheWrite })
    }
  }
}
