import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { withFileLock } from '../../providers/key-file-lock'
import type { OAuthVault, StoredTokens } from './oauth-vault'

/**
 * A fetch for one server's transport that makes every token refresh one at a time, across
 * processes, and never spends a refresh token twice. Servers rotate refresh tokens: the second
 * of two refreshes sent with the same one is refused, and many servers then revoke the whole
 * login. So a refresh takes the vault's lock, reads the record again, and when another process
 * (or another call of this one) rotated it meanwhile, answers with the tokens stored instead of
 * asking the server; else it asks and stores the answer before letting go of the lock.
 */
export function lockedRefreshFetch(vault: OAuthVault, key: string, base: FetchLike): FetchLike {
  return async (url, init) => {
    const sent = refreshTokenOf(init)
    if (sent === null) return base(url, init)
    return withFileLock(vault.lockFile, async () => {
      const current = vault.read(key).tokens
      if (current?.refresh_token && current.refresh_token !== sent) return answerWith(current)
      const response = await base(url, init)
      if (response.ok) {
        const fresh = (await response.clone().json()) as StoredTokens
        const expires =
          fresh.expires_in === undefined ? {} : { expires_at: Date.now() + fresh.expires_in * 1000 }
        // A server that sends no new refresh token keeps the one that was sent valid.
        const tokens = { refresh_token: sent, ...fresh, ...expires }
        await vault.update(key, (record) => ({ ...record, tokens }))
      }
      return response
    })
  }
}

/** The refresh token a token request spends, or null when it is no refresh. */
function refreshTokenOf(init: RequestInit | undefined): string | null {
  if (init?.method !== 'POST' || !(init.body instanceof URLSearchParams)) return null
  if (init.body.get('grant_type') !== 'refresh_token') return null
  return init.body.get('refresh_token')
}

/** The stored tokens as the token endpoint would have answered them. */
function answerWith(tokens: StoredTokens): Response {
  const { expires_at: expiresAt, ...wire } = tokens
  const left =
    expiresAt === undefined ? undefined : Math.max(0, Math.floor((expiresAt - Date.now()) / 1000))
  const body = JSON.stringify({ ...wire, ...(left === undefined ? {} : { expires_in: left }) })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
}
