import { z } from 'zod'
import type { Settings } from '../../../shared/settings'
import { modelInventory } from '../../providers/model-inventory'
import { folderlessReadOnlyTool, noCapabilities, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'

/**
 * The configured providers and models, as exact `provider_id` + `model_id` pairs with their
 * context windows and image support: the same inventory the window's model picker shows.
 */
export function discoverModelsTool(settings: () => Promise<Settings>): Tool {
  return folderlessReadOnlyTool({
    name: 'DiscoverModels',
    description:
      'List the configured model providers and their models: the exact provider_id and model_id to name one by, its context window in tokens, and whether it takes images. Keys and addresses are never shown.',
    inputSchema: z.object({}).strict(),
    capabilities: noCapabilities,
    presentation: plainPresentation('DiscoverModels', 'nothing'),
    call: async () => {
      const models = modelInventory(await settings()).map((m) => ({
        provider_id: m.providerId,
        provider_kind: m.providerKind,
        model_id: m.model,
        context_window: m.contextWindow,
        images: m.images,
        default: m.isDefault
      }))
      if (models.length === 0) {
        return textOutput('No models are configured: a person adds providers in Settings.')
      }
      return textOutput(JSON.stringify({ models }, null, 2))
    }
  })
}
