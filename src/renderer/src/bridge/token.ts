/** Where the browser-mode access token is kept so a reload without `?token=` still connects. */
export const TOKEN_STORAGE_KEY = 'mecatl.token'

type TokenStorage = Pick<Storage, 'getItem' | 'setItem'>

/**
 * The token from the URL wins (a fresh link from `mecatl serve`), else the one this tab saw
 * before. Storage can throw in locked-down browsers; the URL token still works then.
 */
export function resolveToken(search: string, storage: TokenStorage | null): string | null {
  const fromUrl = new URLSearchParams(search).get('token')
  if (fromUrl) {
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, fromUrl)
    } catch {
      // Not fatal: only a reload without the token would suffer.
    }
    return fromUrl
  }
  try {
    return storage?.getItem(TOKEN_STORAGE_KEY) ?? null
  } catch {
    return null
  }
}

/** The WebSocket address of the router, on the same host that served this page. */
export function rpcSocketUrl(host: string, token: string): string {
  return `ws://${host}/rpc?token=${encodeURIComponent(token)}`
}
