import { useState, type JSX } from 'react'
import type { SessionSummary } from '../../../../shared/domain'
import { setSessionModel, useModels } from './chat-store'
import { modelKey, modelLabel, pickerOptions } from './models-reducer'
import { ReasoningPicker } from './reasoning-picker'
import { shortModelName } from './model-name'

/**
 * The session's model; a change applies to its next turn. `reasoning: false` leaves out the
 * effort picker, which a narrow header shows in its More menu instead.
 */
export function ModelPicker({
  session,
  reasoning = true
}: {
  session: SessionSummary | null
  reasoning?: boolean
}): JSX.Element {
  const models = useModels((s) => s.state)
  const [error, setError] = useState<string | null>(null)
  const current = session?.model ?? models.defaultModel
  const options = pickerOptions(models, current)
  const empty = options.length === 0

  // The header shows the model's short name; the list and the title give it whole.
  const shown = current
    ? shortModelName(current.model)
    : empty
      ? models.status === 'loading'
        ? 'Loading models…'
        : 'No models'
      : 'Choose a model'
  return (
    <div className="model-picker">
      <span className="model-picker__field">
        <span
          className="select select--compact mono model-picker__label"
          aria-hidden="true"
          data-testid="model-picker-label"
        >
          {shown}
        </span>
        <select
          className="select select--compact mono model-picker__select"
          data-testid="model-picker"
          aria-label="Model"
          value={current ? modelKey(current) : ''}
          disabled={!session || empty}
          title={error ?? (current ? `${current.providerId} / ${current.model}` : undefined)}
          onChange={(e) => {
            const model = options.find((m) => modelKey(m) === e.target.value)
            if (!session || !model) return
            setError(null)
            void setSessionModel(session.id, model).then(setError)
          }}
        >
          {empty && (
            <option value="">
              {models.status === 'loading'
                ? 'Loading models…'
                : 'No models — add a provider in Settings'}
            </option>
          )}
          {!current && !empty && <option value="">Choose a model</option>}
          {options.map((model) => (
            <option key={modelKey(model)} value={modelKey(model)}>
              {modelLabel(model)}
            </option>
          ))}
        </select>
      </span>
      {reasoning && <ReasoningPicker model={current} />}
      {error && (
        <span className="model-picker__error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}
