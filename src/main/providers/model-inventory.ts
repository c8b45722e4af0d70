import type { ModelInfo } from '../../shared/models'
import type { Settings } from '../../shared/settings'
import { contextWindowFor } from './context-window'
import { modelSupportsImages } from './model-capabilities'
import { reasoningOf, type ModelReasoning } from '../../shared/reasoning'

/**
 * Every configured model with what it can do, in settings order. Only ids, kinds, windows and
 * image support: never a key, the name of a key's variable or secret, or a base URL (which may
 * carry a user and password).
 */
export function modelInventory(settings: Settings): ModelInfo[] {
  const fallback = settings.default_model
  return settings.providers.flatMap((provider) =>
    provider.models.map((model) => ({
      providerId: provider.id,
      model,
      providerKind: provider.kind,
      contextWindow: contextWindowFor({ providerId: provider.id, model }, settings),
      images: modelSupportsImages(provider.kind, model, provider),
      isDefault: fallback?.provider === provider.id && fallback.model === model,
      ...reasoningEntry(reasoningOf(provider, model))
    }))
  )
}

function reasoningEntry(reasoning: ModelReasoning | undefined): { reasoning?: ModelReasoning } {
  return reasoning ? { reasoning } : {}
}
