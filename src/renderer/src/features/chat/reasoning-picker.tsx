import { useState, type JSX } from 'react'
import type { ModelRef } from '../../../../shared/domain'
import {
  reasoningChoices,
  reasoningKey,
  withModelReasoning,
  type ModelReasoning
} from '../../../../shared/reasoning'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { loadModels, useModels } from './chat-store'
import { modelKey } from './models-reducer'
import './reasoning-picker.css'

/**
 * Saves `model`'s reasoning into the settings file, as Settings would: the file as it is now, with
 * only that one entry changed. Null when saved, else what went wrong.
 */
async function saveModelReasoning(
  ref: ModelRef,
  value: ModelReasoning | null
): Promise<string | null> {
  try {
    const { settings } = await call('settings.get', {})
    const raw = (settings && typeof settings === 'object' ? settings : {}) as Record<
      string,
      unknown
    >
    const providers = Array.isArray(raw.providers) ? (raw.providers as unknown[]) : []
    const next = providers.map((p) =>
      p && typeof p === 'object' && (p as Record<string, unknown>).id === ref.providerId
        ? withModelReasoning(p as Record<string, unknown>, ref.model, value)
        : p
    )
    const saved = await call('settings.save', { settings: { ...raw, providers: next } })
    if (!saved.saved) {
      return `Not saved: ${saved.issues.map((i) => i.message).join('; ')}. Fix it in Settings.`
    }
    await loadModels()
    return null
  } catch (error) {
    return `Could not save the reasoning setting (${errorMessage(error)}); try again in Settings.`
  }
}

/** How much the session's model thinks before it answers; a change applies to its next turn. */
export function ReasoningPicker({ model }: { model: ModelRef | null }): JSX.Element | null {
  const models = useModels((s) => s.state.models)
  const [error, setError] = useState<string | null>(null)
  const info = model ? models.find((m) => modelKey(m) === modelKey(model)) : undefined
  if (!model || !info) return null
  const choices = reasoningChoices(info.providerKind, info.reasoning)
  return (
    <>
      <select
        className="select select--compact reasoning-picker"
        data-testid="reasoning-picker"
        aria-label="Reasoning"
        value={reasoningKey(info.reasoning)}
        title={error ?? 'How much the model thinks before it answers (saved in Settings)'}
        onChange={(e) => {
          const choice = choices.find((c) => reasoningKey(c.value) === e.target.value)
          if (!choice) return
          setError(null)
          void saveModelReasoning(model, choice.value).then(setError)
        }}
      >
        {choices.map((choice) => (
          <option key={reasoningKey(choice.value)} value={reasoningKey(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
      {error && (
        <span className="model-picker__error" role="alert">
          {error}
        </span>
      )}
    </>
  )
}
