import { defaultKeyEnv, searchBackendSchema, type SearchBackend } from './websearch'

/**
 * What every command (and every sandboxed MCP server) gets of Mecatl's own environment, when set
 * there: where programs are, who and where the person is, their language and terminal. Nothing
 * else passes unless a person names it (`shell.env_passthrough`): a key in Mecatl's environment
 * is there for Mecatl, and whatever a command can print, the model reads.
 */
export const COMMAND_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ'
]

/** The locale's variables (`LC_ALL`, `LC_CTYPE`…), which pass like LANG. */
const LOCALE = /^LC_[A-Z]+$/

/** Names that look like they hold a secret: only a person naming one lets it through. */
const SECRET_LOOKING = /(_KEY|_TOKEN|_SECRET|_CREDENTIALS?|PASSWORD|PASSWD|_PAT|_AUTH)$|PASSWORD/i

/** Whether a name would pass by the fixed list alone (never one that looks like a secret). */
export function passesByDefault(name: string): boolean {
  if (SECRET_LOOKING.test(name)) return false
  return COMMAND_ENV_NAMES.includes(name) || LOCALE.test(name)
}

/** Whether a name looks like it holds a secret, for the settings screen's warning. */
export function looksSecret(name: string): boolean {
  return SECRET_LOOKING.test(name)
}

/**
 * A command's environment from `source`: the fixed names, then those a person listed, never one
 * of `never` (the keys Mecatl itself uses: a provider's or a search backend's), whatever lists it.
 */
export function commandEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  listed: readonly string[],
  never: ReadonlySet<string>
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || never.has(name)) continue
    if (passesByDefault(name) || listed.includes(name)) env[name] = value
  }
  return env
}

/** What of the settings names the keys Mecatl itself reads. */
export interface KeyHolders {
  providers: readonly { api_key_env?: string }[]
  websearch: { backends: readonly SearchBackend[] }
}

/**
 * The variables Mecatl reads its own keys from: every provider's `api_key_env`, every search
 * backend's, and the names each kind of search backend reads when none is given.
 */
export function mecatlKeyNames(settings: KeyHolders): Set<string> {
  const kinds = searchBackendSchema.options.map((option) => option.shape.kind.value)
  return new Set([
    ...settings.providers.flatMap((p) => p.api_key_env ?? []),
    ...settings.websearch.backends.flatMap((b) =>
      'api_key_env' in b ? (b.api_key_env ?? []) : []
    ),
    ...kinds.flatMap((kind) => defaultKeyEnv(kind) ?? [])
  ])
}
