import { useEffect, type JSX } from 'react'
import { subscribe } from '../../bridge/client'
import { openSettings } from '../../app/app-store'
import { bannerHeadline, describeProblem } from './settings-health-reducer'
import { loadSettingsHealth, useSettingsHealth } from './settings-health-store'
import './settings-banner.css'

const SHOWN = 3

/**
 * Across the top of every window while a settings file does not validate: what is wrong, where,
 * and whether the app runs on the last valid copy or runs nothing. It re-reads on the main
 * process's word, and when the window regains focus (the file may have been edited elsewhere).
 */
export function SettingsBanner({ workspace }: { workspace: string | null }): JSX.Element | null {
  const state = useSettingsHealth((s) => s.state)

  useEffect(() => {
    void loadSettingsHealth(workspace)
    // Any file's change is worth a re-read: the folder here may be spelt another way than the
    // canonical path the event names, and the read is cheap.
    const stop = subscribe((event) => {
      if (event.event === 'settings.status') void loadSettingsHealth(workspace)
    })
    const onFocus = (): void => void loadSettingsHealth(workspace)
    window.addEventListener('focus', onFocus)
    return () => {
      stop()
      window.removeEventListener('focus', onFocus)
    }
  }, [workspace])

  if (state.files.length === 0) return null
  const problems = state.files.flatMap((file) =>
    file.issues.map((_, i) => ({ key: `${file.path}#${i}`, text: describeProblem(file, i) }))
  )
  const hidden = problems.length - SHOWN
  return (
    <div
      className={`settings-banner${state.blocked ? ' settings-banner--blocked' : ''}`}
      role={state.blocked ? 'alert' : 'status'}
      data-testid="settings-banner"
    >
      <div className="settings-banner__text">
        <strong>{bannerHeadline(state)}</strong>
        <ul className="settings-banner__problems">
          {problems.slice(0, SHOWN).map((problem) => (
            <li key={problem.key} className="mono">
              {problem.text}
            </li>
          ))}
          {hidden > 0 && <li>and {hidden} more, listed in Settings</li>}
        </ul>
      </div>
      <button type="button" className="button button--small" onClick={openSettings}>
        Open Settings
      </button>
    </div>
  )
}
