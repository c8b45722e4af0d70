import type { Handlers } from '../../shared/contract/handlers'
import type { ModelRef } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import {
  compactThreshold,
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOW
} from '../providers/context-window'
import { providerSettingsFor } from '../providers/provider-lookup'
import { servedWindowFor } from '../providers/served-context-window'
import type { SettingsStore } from '../settings/settings-store'
import type { SessionService } from './session-service'

/** The model a session's next turn uses: its own, else the settings' default (as a turn does). */
function nextModel(model: ModelRef | null, settings: Settings): ModelRef | null {
  if (model) return model
  const fallback = settings.default_model
  return fallback ? { providerId: fallback.provider, model: fallback.model } : null
}

/**
 * `session.meters`: the figures the chat header shows beside the transcript, worked out the way
 * the next turn works them out (the same window, served window and threshold), so the mark on
 * the meter is where compaction really happens.
 */
export function meterHandlers(deps: {
  sessions: SessionService
  settings: SettingsStore
}): Pick<Handlers, 'session.meters'> {
  return {
    'session.meters': async ({ sessionId }) => {
      // Not loading a recorded session: the header asks for these as the session opens.
      const session = deps.sessions.meterReading(sessionId)
      const { settings } = await deps.settings.get()
      const ref = nextModel(session.model, settings)
      const served = ref
        ? await servedWindowFor(providerSettingsFor(ref, settings), ref.model)
        : null
      const contextWindow = ref
        ? contextWindowFor(ref, settings, served?.tokens)
        : DEFAULT_CONTEXT_WINDOW
      return {
        contextWindow: Math.max(1, Math.round(contextWindow)),
        compactAt: Math.max(1, Math.round(compactThreshold(ref, settings, served?.tokens))),
        // Kept in memory by the turn loop: after a restart it is unknown until the next reply.
        contextTokens: session.inputTokens > 0 ? session.inputTokens : null,
        totals: session.totals
      }
    }
  }
}
