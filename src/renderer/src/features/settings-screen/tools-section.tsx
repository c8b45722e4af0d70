import type { JSX } from 'react'
import { editSettings, useSettingsFile } from '../settings'
import { switchOn, toolSwitches, withSwitch } from './tools-switches'
import { SettingsCard } from '../settings'

/** Settings → Tools: the built-in families a person can take away from the model. */
export function ToolsSection(): JSX.Element {
  const base = useSettingsFile()
  const dispatch = editSettings
  return (
    <SettingsCard name="tools" title="Tools" testId="tools-section">
      <p className="settings-section__hint">
        What the model may use. A change applies from the next message of every open session.
      </p>
      <ul className="tool-switches">
        {toolSwitches.map((entry) => (
          <li key={entry.key} className="tool-switches__row">
            <label className="tool-switches__label">
              <input
                type="checkbox"
                data-testid={`tool-switch-${entry.key}`}
                checked={switchOn(base, entry.key)}
                onChange={(e) =>
                  dispatch({
                    type: 'section-edit',
                    key: entry.key,
                    value: withSwitch(base, entry.key, e.target.checked)
                  })
                }
              />
              {entry.label}
            </label>
            <span className="field__hint">{entry.hint}</span>
          </li>
        ))}
      </ul>
    </SettingsCard>
  )
}
