import type { SearchBackendKind } from '../../../../shared/websearch'

/** The `websearch` settings as the file holds them: edited in place, unknown keys kept. */
export type RawWebsearch = Record<string, unknown>
export type RawBackend = Record<string, unknown>

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const backendKinds: { kind: SearchBackendKind; label: string; hint: string }[] = [
  {
    kind: 'exa',
    label: 'Exa',
    hint: 'Exa’s public MCP endpoint. Works without a key; a key (EXA_API_KEY) uses the paid tier.'
  },
  {
    kind: 'brave',
    label: 'Brave Search',
    hint: 'Brave’s Search API; needs a key (BRAVE_API_KEY).'
  },
  {
    kind: 'searxng',
    label: 'SearXNG',
    hint: 'Your own SearXNG instance, with the JSON format enabled. Empty URL: SEARXNG_URL.'
  },
  {
    kind: 'http',
    label: 'HTTP JSON service',
    hint: 'Any service answering JSON with a results array of title, url and snippet.'
  }
]

export function kindLabel(kind: unknown): string {
  return backendKinds.find((k) => k.kind === kind)?.label ?? String(kind)
}

export function websearchOf(base: Record<string, unknown>): RawWebsearch {
  return isRecord(base.websearch) ? base.websearch : {}
}

export function backendsOf(websearch: RawWebsearch): RawBackend[] {
  return Array.isArray(websearch.backends) ? websearch.backends.filter(isRecord) : []
}

/** Whether web search is on: the file's `enabled`, true when unset. */
export function searchEnabled(websearch: RawWebsearch): boolean {
  return websearch.enabled !== false
}

export function isEnabled(backend: RawBackend): boolean {
  return backend.enabled !== false
}

function withBackends(websearch: RawWebsearch, backends: RawBackend[]): RawWebsearch {
  return { ...websearch, backends }
}

export function addBackend(websearch: RawWebsearch, kind: SearchBackendKind): RawWebsearch {
  const fresh: RawBackend = kind === 'http' ? { kind, url: '' } : { kind }
  return withBackends(websearch, [...backendsOf(websearch), fresh])
}

export function removeBackend(websearch: RawWebsearch, index: number): RawWebsearch {
  return withBackends(
    websearch,
    backendsOf(websearch).filter((_, i) => i !== index)
  )
}

/** Moves a backend up (-1) or down (+1) the chain; at either end nothing changes. */
export function moveBackend(websearch: RawWebsearch, index: number, by: -1 | 1): RawWebsearch {
  const list = [...backendsOf(websearch)]
  const to = index + by
  const moving = list[index]
  if (!moving || to < 0 || to >= list.length) return websearch
  list.splice(index, 1)
  list.splice(to, 0, moving)
  return withBackends(websearch, list)
}

/** Sets one field of one backend; an empty text removes the field (so the default applies). */
export function setBackendField(
  websearch: RawWebsearch,
  index: number,
  field: string,
  value: string | boolean
): RawWebsearch {
  return withBackends(
    websearch,
    backendsOf(websearch).map((backend, i) => {
      if (i !== index) return backend
      const next = { ...backend }
      if (value === '' || (field === 'enabled' && value === true)) delete next[field]
      else next[field] = value
      return next
    })
  )
}

export function setSearchEnabled(websearch: RawWebsearch, enabled: boolean): RawWebsearch {
  const next = { ...websearch }
  if (enabled) delete next.enabled
  else next.enabled = false
  return next
}

/** The name a stored key goes under: one per backend kind and place in the chain. */
export function secretName(kind: unknown, index: number): string {
  return `websearch.${String(kind)}.${index + 1}.api_key`
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
