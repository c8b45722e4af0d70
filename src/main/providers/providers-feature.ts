import type { Feature } from '../feature'
import type { HostHooks } from '../host-hooks'
import type { KeySource } from './create-provider'
import { withKeyFile } from './key-file'
import { ProviderLookup, type ProviderOverride } from './provider-lookup'

export interface ProvidersProvides {
  /** The host's hooks, with a key file to keep typed keys where the host keeps none. */
  hooks: HostHooks
  keys: KeySource
  /** Which providers a model reference can reach (the settings', or one given by flags). */
  providers: ProviderLookup
}

/** Model providers and the keys they are reached with. */
export const providersFeature: Feature<
  {
    options: { dataDir: string; hooks?: HostHooks; providerFor?: ProviderOverride }
    env: NodeJS.ProcessEnv
  },
  ProvidersProvides
> = {
  name: 'providers',
  start({ options, env }) {
    const hooks = withKeyFile(options.hooks ?? {}, options.dataDir)
    const keys: KeySource = { env, readSecret: hooks.readSecret }
    return { provides: { hooks, keys, providers: new ProviderLookup(keys, options.providerFor) } }
  }
}
