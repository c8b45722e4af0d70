import { routeSearch } from '../lib/route'

/** Loads the project window for `folder` in this tab/window, keeping the token. */
export function navigateToFolder(folder: string): void {
  window.location.assign(
    `${window.location.pathname}${routeSearch(window.location.search, { folder })}`
  )
}

/** Back to the welcome screen. */
export function navigateHome(): void {
  window.location.assign(
    `${window.location.pathname}${routeSearch(window.location.search, { folder: null })}`
  )
}

/** Remembers the selected session in the URL so a reload comes back to it; no navigation. */
export function rememberSession(sessionId: string): void {
  const search = routeSearch(window.location.search, { session: sessionId })
  window.history.replaceState(null, '', `${window.location.pathname}${search}`)
}
