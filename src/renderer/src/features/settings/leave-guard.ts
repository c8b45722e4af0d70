import { closeSettings, useApp } from '../../app/app-store'

/** Asks about unsaved changes, and runs `leave` once the person chose to leave (saved or not). */
export type LeaveGuard = (leave: () => void) => void

let active: LeaveGuard | null = null

/** Settings register their guard while they are open; null when they close. */
export function setLeaveGuard(guard: LeaveGuard | null): void {
  active = guard
}

/**
 * Every way out of Settings goes through here (Back, shortcuts, palette commands): Settings close
 * first, asking when something is unsaved, and `then` runs only once they have. Stay runs
 * nothing. Outside Settings, or during the first run (which has its own way on), `then` runs at
 * once.
 */
export function leaveSettingsThen(then: () => void = () => {}): void {
  const { settingsOpen, onboarding } = useApp.getState().state
  if (!settingsOpen || onboarding) return then()
  const leave = (): void => {
    closeSettings()
    then()
  }
  if (active) active(leave)
  else leave()
}
