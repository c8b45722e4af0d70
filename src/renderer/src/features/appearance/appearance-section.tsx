import type { JSX } from 'react'
import { editSetting, useSettingsFile, SettingsCard } from '../settings'
import { themeChoiceOf, withTheme, type ThemeChoice } from './theme'
import './appearance.css'

const choices: { value: ThemeChoice; label: string; hint: string }[] = [
  {
    value: 'system',
    label: 'Follow the system',
    hint: 'Light or dark as the system is set, live.'
  },
  { value: 'light', label: 'Light', hint: 'Always light.' },
  { value: 'dark', label: 'Dark', hint: 'Always dark.' }
]

/** Settings → Appearance: light, dark, or following the system (the default). */
export function AppearanceSection(): JSX.Element {
  const base = useSettingsFile()
  const current = themeChoiceOf(base)
  return (
    <SettingsCard name="appearance" title="Appearance" testId="appearance-section">
      <fieldset className="theme-choices">
        <legend className="settings-section__hint">
          The window shows the theme as you pick it; Save keeps it for next time.
        </legend>
        {choices.map((choice) => (
          <label key={choice.value} className="theme-choice">
            <input
              type="radio"
              name="theme"
              value={choice.value}
              data-testid={`theme-${choice.value}`}
              checked={current === choice.value}
              onChange={() => editSetting('appearance', withTheme(base, choice.value))}
            />
            <span className="theme-choice__label">{choice.label}</span>
            <span className="theme-choice__hint">{choice.hint}</span>
          </label>
        ))}
      </fieldset>
    </SettingsCard>
  )
}
