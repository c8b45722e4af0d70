import type { JSX } from 'react'
import {
  modelReasoningSchema,
  reasoningChoices,
  reasoningKey,
  type ModelReasoning
} from '../../../../shared/reasoning'
import type { ProviderDraft } from '../settings'
import { editSettings } from '../settings'
import './reasoning-fields.css'

/** The draft's `reasoning` map as the file holds it, entries that do not parse left out. */
function reasoningMap(draft: ProviderDraft): Record<string, ModelReasoning> {
  const raw = draft.extra?.reasoning
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {}
  const map: Record<string, ModelReasoning> = {}
  for (const [model, value] of Object.entries(raw)) {
    const parsed = modelReasoningSchema.safeParse(value)
    if (parsed.success) map[model] = parsed.data
  }
  return map
}

/**
 * Per model of the provider: thinking off or a budget (Anthropic), or a reasoning effort
 * (OpenAI and compatible). Saved with the provider, in its `reasoning` map.
 */
export function ReasoningFields({ draft }: { draft: ProviderDraft }): JSX.Element | null {
  const dispatch = editSettings
  if (draft.models.length === 0) return null
  const map = reasoningMap(draft)
  return (
    <fieldset className="reasoning-fields" data-testid="provider-reasoning">
      <legend className="field__label">Reasoning</legend>
      {draft.models.map((model) => {
        const choices = reasoningChoices(draft.kind, map[model])
        return (
          <label key={model} className="reasoning-fields__row field__hint">
            <span className="mono">{model}</span>
            <select
              className="select select--compact"
              data-testid={`provider-reasoning-${model}`}
              value={reasoningKey(map[model])}
              onChange={(e) => {
                const choice = choices.find((c) => reasoningKey(c.value) === e.target.value)
                if (choice) dispatch({ type: 'form-reasoning', model, reasoning: choice.value })
              }}
            >
              {choices.map((choice) => (
                <option key={reasoningKey(choice.value)} value={reasoningKey(choice.value)}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        )
      })}
    </fieldset>
  )
}
