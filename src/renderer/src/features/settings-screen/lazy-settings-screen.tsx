import type { JSX, ReactNode } from 'react'
import { closeSettings, useApp } from '../../app/app-store'
import { ArrowLeftIcon } from '../../lib/icons'
import { lazyPart } from '../../lib/lazy-part'
import { Button } from '../../ui/button'
import { loadFeatureSections } from './feature-sections'
import './settings-frame.css'

/**
 * The Settings page's frame without the page: its header where the page's will be, and what
 * stands in for the page. Back and Skip work already: nothing has been edited here.
 */
function SettingsFrame({ children, busy }: { children: ReactNode; busy: boolean }): JSX.Element {
  const onboarding = useApp((s) => s.state.onboarding)
  return (
    <div
      className="settings"
      role="region"
      aria-label="Settings"
      aria-busy={busy}
      data-testid={busy ? 'settings-loading' : 'settings-missing'}
    >
      <header className="settings__header">
        {!onboarding && (
          <Button tone="ghost" onClick={closeSettings}>
            <ArrowLeftIcon /> Back
          </Button>
        )}
        <h1 className="settings__title">{onboarding ? 'Set up Mecatl' : 'Settings'}</h1>
        {onboarding && (
          <Button tone="ghost" className="settings__skip" onClick={closeSettings}>
            Skip for now
          </Button>
        )}
      </header>
      {children}
    </div>
  )
}

function SettingsMissing(): JSX.Element {
  return (
    <SettingsFrame busy={false}>
      <div className="settings__loading-failed" role="alert">
        <p>Settings could not be loaded. Reload the window to try again.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    </SettingsFrame>
  )
}

/** While the page loads: after a moment, a line saying what is coming. */
function SettingsLoading(): JSX.Element {
  return (
    <SettingsFrame busy>
      <p className="settings__loading">Loading settings…</p>
    </SettingsFrame>
  )
}

/**
 * The Settings screen, loaded on first use (settings-screen.tsx is the page itself): it lays out
 * every feature's section and form, a chunk of its own loaded when Settings first opens (on a
 * fresh install, that is at start), not with every project window. The sections other features
 * own are chunks of theirs, loaded at the same moment; the page shows once all have arrived.
 */
export const SettingsScreen = lazyPart(
  async () => {
    const [page] = await Promise.all([import('./settings-screen'), loadFeatureSections()])
    return page.SettingsScreen
  },
  { loading: SettingsLoading, failed: SettingsMissing }
)
