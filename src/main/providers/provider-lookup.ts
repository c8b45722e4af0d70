import type { ModelRef } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import { createProvider, type KeySource } from './create-provider'
import type { Provider } from './provider'
import { providerSettingsFor } from './provider-settings'

/**
 * A provider from outside the settings file (CLI flags, tests); when it answers null, the one
 * in the settings is used.
 */
export type ProviderOverride = (ref: ModelRef, settings: Settings) => Provider | null

/** The one place a model reference becomes a provider to talk to, for every kind of turn. */
export class ProviderLookup {
  constructor(
    private readonly keys: KeySource,
    private readonly override?: ProviderOverride
  ) {}

  /** Whether a turn could reach `ref`'s provider (the settings, or an override, know it). */
  knows(ref: ModelRef, settings: Settings): boolean {
    return Boolean(this.override?.(ref, settings) ?? providerSettingsFor(ref, settings))
  }

  /** The provider for `ref` under these settings; throws a sentence a person can act on. */
  providerFor(ref: ModelRef | null, settings: Settings): Provider {
    if (!ref) {
      throw new Error(
        'No model is chosen for this session: add a provider in Settings and pick a default model.'
      )
    }
    const given = this.override?.(ref, settings)
    if (given) return given
    const config = providerSettingsFor(ref, settings)
    if (!config) {
      throw new Error(
        `The provider "${ref.providerId}" chosen for this session is no longer in Settings; pick another model.`
      )
    }
    return createProvider(config, this.keys)
  }
}
