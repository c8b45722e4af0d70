import { useEffect, type JSX } from 'react'
import { ConnectionBanner } from '../bridge/connection-banner'
import { useConnection } from '../bridge/connection-store'
import { loadSettings, SettingsBanner } from '../features/settings'
import { SettingsScreen } from '../features/settings-screen'
import { KeyboardLayer } from '../features/shortcuts'
import { WindowSignals } from '../features/notifications'
import { WelcomeScreen } from '../features/welcome'
import { openProject } from '../features/sessions'
import { preloadReplies } from '../features/chat'
import { LogoMark } from '../lib/icons'
import { parseRoute } from '../lib/route'
import { loadAppInfo, useApp } from '../app/app-store'
import { ProjectWindow } from './project-window'

// Opening another folder loads the page anew, so the route is read once.
const route = parseRoute(window.location.search)

/**
 * What the window asks for as it starts, before its first render: the app's facts and the
 * settings (which decide between the first-run setup and the rest) and, for a window opened on a
 * folder, the folder itself and what its replies are rendered with, alongside them rather than
 * after (the project window's own call to open the folder joins this one).
 */
export async function bootWindow(): Promise<void> {
  if (route.folder) {
    preloadReplies()
    void openProject(route.folder, route.session)
  }
  const info = loadAppInfo()
  const providers = await loadSettings()
  // If settings cannot be read at all, do not trap the person in onboarding: the settings
  // screen shows the error when they open it.
  useApp.getState().dispatch({ type: 'settings-checked', providerCount: providers ?? 1 })
  await info
}

function MissingToken(): JSX.Element {
  return (
    <div className="center-screen">
      <div className="center-card">
        <LogoMark size={36} />
        <h1>Open Mecatl from its link</h1>
        <p>
          This page needs the access token that <span className="mono">mecatl serve</span> prints
          with its address. Open the full link it printed, including{' '}
          <span className="mono">?token=…</span>.
        </p>
      </div>
    </div>
  )
}

function BootError({ error }: { error: string }): JSX.Element {
  return (
    <div className="center-screen">
      <div className="center-card" role="alert">
        <LogoMark size={36} />
        <h1>Mecatl did not answer</h1>
        <p>{error}</p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    </div>
  )
}

/** The window: first-run settings, then a project folder or the welcome screen. */
export function App(): JSX.Element {
  const missingToken = useConnection((s) => s.missingToken)
  const { info, infoError, settingsOpen, settingsChecked, onboarding } = useApp((s) => s.state)

  useEffect(() => {
    if (!route.folder) document.title = 'Mecatl'
  }, [])

  if (missingToken) return <MissingToken />
  if (infoError && !info) return <BootError error={infoError} />

  const ready = info !== null && settingsChecked
  return (
    <div className="app">
      <ConnectionBanner />
      {info !== null && <SettingsBanner workspace={route.folder ?? null} />}
      <div className="app__body">
        {!ready && (
          <div className="center-screen center-screen--boot" aria-busy="true">
            <LogoMark size={36} />
          </div>
        )}
        {ready &&
          !onboarding &&
          (route.folder ? (
            <ProjectWindow folder={route.folder} session={route.session} />
          ) : (
            <WelcomeScreen />
          ))}
        {ready && settingsOpen && <SettingsScreen />}
      </div>
      {ready && <KeyboardLayer />}
      {ready && <WindowSignals />}
    </div>
  )
}
