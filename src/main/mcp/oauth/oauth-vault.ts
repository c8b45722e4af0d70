import path from 'node:path'
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { KeyFile } from '../../providers/key-file'
import type { HostHooks } from '../../host-hooks'

/** Tokens as kept: what the server gave, with when the access token runs out. */
export type StoredTokens = OAuthTokens & { expires_at?: number }

/** What Mecatl keeps of its sign-in to one remote server (see OAuthVault). */
export interface OAuthRecord {
  tokens?: StoredTokens
  /** The client Mecatl registered with the server's authorization server (none: pre-registered). */
  clientInformation?: OAuthClientInformationMixed
  discoveryState?: OAuthDiscoveryState
}

/**
 * Where the sign-ins to remote MCP servers are kept, one record per server address: with the
 * OS keychain (safeStorage) on the desktop, else in `mcp-oauth.json` in the data directory, 0600
 * in a 0700 folder (the key file's rules: a wider file is refused, not trusted). Never in the
 * settings file or a log. Every read is fresh, so a record another process rotated is seen.
 */
export interface OAuthVault {
  read(key: string): OAuthRecord
  write(key: string, record: OAuthRecord | null): Promise<void>
  /**
   * Changes the record as it is stored when the change is made, one change at a time: the SDK
   * saves tokens, registration and discovery separately, and flows may overlap.
   */
  update(key: string, edit: (record: OAuthRecord) => OAuthRecord): Promise<void>
  /** The file whose lock makes token refreshes one at a time, across processes. */
  readonly lockFile: string
}

const NAME_PREFIX = 'mcp-oauth '

/** The vault of a host: its keychain where it has one, else the 0600 file. */
export function oauthVault(hooks: HostHooks, dataDir: string): OAuthVault {
  const lockFile = path.join(dataDir, 'mcp-oauth.refresh')
  const { storeSecret, readSecret } = hooks
  if (storeSecret && readSecret && hooks.secretFile === undefined) {
    // The keychain store is this process's alone (the desktop runs one): a queue orders changes.
    let queue: Promise<void> = Promise.resolve()
    const read = (key: string): OAuthRecord => parseRecord(readSecret(NAME_PREFIX + key))
    const write = (key: string, record: OAuthRecord | null): Promise<void> =>
      storeSecret(NAME_PREFIX + key, JSON.stringify(record ?? {}))
    return {
      lockFile,
      read,
      write,
      update: (key, edit) => {
        queue = queue.then(
          () => write(key, edit(read(key))),
          () => write(key, edit(read(key)))
        )
        return queue
      }
    }
  }
  const file = new KeyFile(dataDir, 'mcp-oauth.json')
  return {
    lockFile,
    read: (key) => parseRecord(file.read(key)),
    write: async (key, record) => {
      if (record) await file.store(key, JSON.stringify(record))
      else await file.remove(key)
    },
    update: (key, edit) => file.update(key, (stored) => JSON.stringify(edit(parseRecord(stored))))
  }
}

/** A stored record; one that does not parse (written by hand, cut short) counts as none. */
function parseRecord(text: string | undefined): OAuthRecord {
  if (!text) return {}
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as OAuthRecord)
      : {}
  } catch {
    return {}
  }
}
