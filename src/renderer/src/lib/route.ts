/** What the URL says this window shows: a project folder (and session), or the welcome screen. */
export interface Route {
  folder: string | null
  session: string | null
}

export function parseRoute(search: string): Route {
  const params = new URLSearchParams(search)
  return { folder: params.get('folder') || null, session: params.get('session') || null }
}

/**
 * The query string for `patch` on top of `search`, keeping everything else (the token above all:
 * browser mode cannot reconnect without it). A null value removes the parameter.
 */
export function routeSearch(search: string, patch: Partial<Route>): string {
  const params = new URLSearchParams(search)
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined) params.delete(key)
    else params.set(key, value)
  }
  // A new folder never keeps the old folder's session.
  if (patch.folder !== undefined && patch.session === undefined) params.delete('session')
  const text = params.toString()
  return text ? `?${text}` : ''
}
