import type { ModelRef } from '../../shared/domain'
import type { ProviderSettings, Settings } from '../../shared/settings'

/** The settings of the provider a model names, or undefined when Settings has none by that id. */
export function providerSettingsFor(
  ref: Pick<ModelRef, 'providerId'>,
  settings: Settings
): ProviderSettings | undefined {
  return settings.providers.find((p) => p.id === ref.providerId)
}
