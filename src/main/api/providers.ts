import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import { providerSettingsSchema } from '../../shared/settings'
import type { Services } from '../core'
import { withDeadline } from '../net/deadline'
import { createProvider } from '../providers/create-provider'
import { modelInventory } from '../providers/model-inventory'
import { describeBaseUrl, describeProviderFailure } from '../providers/provider-errors'

const PROVIDER_TEST_TIMEOUT_MS = 15_000

/** Testing a provider drafted in Settings, the models there are, and storing keys. */
export function providersApi({
  settings,
  keys,
  hooks
}: Pick<Services, 'settings' | 'keys' | 'hooks'>): SliceHandlers<'providers'> {
  return {
    'provider.test': async ({ provider: raw }) => {
      // Before the schema, whose "Invalid URL" says nothing of what is wrong with it.
      const baseUrl = (raw as { base_url?: unknown } | null)?.base_url
      const malformed = typeof baseUrl === 'string' ? describeBaseUrl(baseUrl) : null
      if (malformed) return { ok: false, error: malformed }
      const parsed = providerSettingsSchema.safeParse(raw)
      if (!parsed.success) {
        const first = parsed.error.issues[0]
        return { ok: false, error: `${first?.path.join('.') || 'provider'}: ${first?.message}` }
      }
      return withDeadline(PROVIDER_TEST_TIMEOUT_MS, async (signal) => {
        try {
          // A draft from the form, not a lookup: it is not in the settings yet.
          const provider = createProvider(parsed.data, keys)
          const models = await provider.listModels(signal)
          return { ok: true, models }
        } catch (error) {
          return { ok: false, error: describeProviderFailure(error, parsed.data, signal) }
        }
      })
    },
    'provider.models': async () => {
      const current = settings.snapshot()
      const fallback = current.default_model
      return {
        // The same inventory DiscoverModels gives the model: windows and image support, no keys.
        models: modelInventory(current),
        defaultModel: fallback ? { providerId: fallback.provider, model: fallback.model } : null
      }
    },
    'secrets.store': async ({ name, value }) => {
      // Keeps a key with the desktop's safeStorage, or in the key file elsewhere.
      if (!hooks.storeSecret) {
        throw new RpcError(
          'unsupported',
          'storing keys needs the desktop app; here, name an environment variable that holds the key'
        )
      }
      await hooks.storeSecret(name, value)
      return { stored: true }
    }
  }
}
