import type { SearchBackend, SearchBackendKind, WebsearchSettings } from '../../../shared/websearch'

/** Where WebSearch's backends come from besides the settings file. */
export interface SearchSources {
  /** The process's environment: EXA_API_KEY, BRAVE_API_KEY and SEARXNG_URL add backends. */
  env: NodeJS.ProcessEnv
  /** The JSON backend of `--websearch-url` and its flags: tried before any other. */
  commandLine?: SearchBackend | null
  /**
   * Testing seam: the addresses the implicit Exa and Brave backends use instead of the real
   * services. Only testing and tests set it; no setting or variable reaches it.
   */
  endpoints?: { exa?: string; brave?: string }
}

/**
 * The chain WebSearch tries, in order: the command line's backend, the listed ones, then (unless
 * `defaults: false`) what the environment names and Exa's public endpoint. A keyed service comes
 * before the anonymous one, so with EXA_API_KEY the paid tier leads and without it the public
 * endpoint is the last resort. A kind the person already listed is theirs to configure, on or
 * off, so the environment never adds a second one of it.
 */
export function effectiveBackends(
  settings: WebsearchSettings,
  sources: SearchSources
): SearchBackend[] {
  const chain: SearchBackend[] = []
  if (sources.commandLine) chain.push(sources.commandLine)
  chain.push(...settings.backends)
  if (!settings.defaults) return chain
  const named = new Set<SearchBackendKind>(chain.map((b) => b.kind))
  const set = (name: string): string | null => sources.env[name]?.trim() || null
  const exa: SearchBackend = { kind: 'exa', enabled: true, ...at(sources.endpoints?.exa) }
  const keyedExa = !named.has('exa') && set('EXA_API_KEY') !== null
  if (keyedExa) chain.push(exa)
  if (!named.has('brave') && set('BRAVE_API_KEY') !== null) {
    chain.push({ kind: 'brave', enabled: true, ...at(sources.endpoints?.brave) })
  }
  const searxng = set('SEARXNG_URL')
  if (!named.has('searxng') && searxng !== null) {
    // A value that is no address is left for the backend to report, without repeating it.
    chain.push({ kind: 'searxng', enabled: true, ...(isHttpUrl(searxng) ? { url: searxng } : {}) })
  }
  if (!named.has('exa') && !keyedExa) chain.push(exa)
  return chain
}

/** Whether any backend of the chain is on: WebSearch and WebOpen are offered only then. */
export function hasBackend(settings: WebsearchSettings, sources: SearchSources): boolean {
  return effectiveBackends(settings, sources).some((backend) => backend.enabled)
}

function at(url: string | undefined): { url?: string } {
  return url ? { url } : {}
}

/** An absolute http: or https: address. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
