import type { JSX } from 'react'
import { editSetting, useSettingsFile, SettingsCard } from '../settings'
import {
  checkpointNumber,
  checkpointNumbers,
  checkpointsOn,
  statusText,
  withCheckpointSetting
} from './checkpoints-model'
import { useCheckpointStatus } from './use-checkpoint-status'
import { Check } from '../../ui/check'
import { Field } from '../../ui/field'
import './checkpoints.css'

/** Settings → Checkpoints: on or off, how long they are kept, and how much room they take. */
export function CheckpointsSection(): JSX.Element {
  const base = useSettingsFile()
  const status = useCheckpointStatus()
  const set = (key: Parameters<typeof withCheckpointSetting>[1], value: boolean | number | null) =>
    editSetting('checkpoints', withCheckpointSetting(base, key, value))
  return (
    <SettingsCard name="checkpoints" title="Checkpoints" testId="checkpoints-section">
      <p className="settings-section__hint">
        Before and after every change the agent makes, Mecatl records the project’s files in its own
        data folder (never in the project’s .git), so Rewind and Revert can put them back.
      </p>
      {status && (
        <p
          className={`checkpoints-status${status.on ? '' : ' checkpoints-status--off'}`}
          data-testid="checkpoints-status"
        >
          {statusText(status)}
        </p>
      )}
      <Check
        className="tool-switches__label"
        testId="checkpoints-enabled"
        checked={checkpointsOn(base)}
        onChange={(on) => set('enabled', on)}
      >
        Take checkpoints
      </Check>
      <div className="checkpoints-settings__numbers">
        {checkpointNumbers.map((entry) => (
          <Field key={entry.key} label={entry.label} hint={entry.hint}>
            {(control) => (
              <input
                // Remade when the file changes under the screen, so the box shows what it says.
                key={checkpointNumber(base, entry.key)}
                {...control}
                type="number"
                className="input"
                min={entry.min}
                step="any"
                data-testid={`checkpoints-${entry.key}`}
                defaultValue={checkpointNumber(base, entry.key)}
                onBlur={(e) => {
                  const value = e.target.valueAsNumber
                  set(entry.key, Number.isFinite(value) ? value : null)
                }}
              />
            )}
          </Field>
        ))}
      </div>
    </SettingsCard>
  )
}
