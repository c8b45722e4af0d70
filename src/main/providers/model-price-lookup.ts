import type { ModelRef } from '../../shared/domain'
import { modelPrice, type PricedModel } from '../../shared/model-prices'
import type { Settings } from '../../shared/settings'
import { providerSettingsFor } from './provider-settings'

/**
 * The price a session's model is charged at under these settings: the provider's `prices` entry,
 * else the built-in table for its kind, else null (no cost is shown rather than a wrong one).
 */
export function priceForModel(ref: ModelRef | null, settings: Settings): PricedModel | null {
  if (!ref) return null
  const provider = providerSettingsFor(ref, settings)
  if (!provider) return null
  const priced = modelPrice(provider.kind, ref.model, provider.prices)
  // Anthropic bills a one-hour cache write at twice the input price, not 1.25 times.
  if (
    priced?.source === 'table' &&
    provider.kind === 'anthropic' &&
    provider.prompt_cache === '1h'
  ) {
    return { ...priced, price: { ...priced.price, cacheWrite: priced.price.input * 2 } }
  }
  return priced
}
