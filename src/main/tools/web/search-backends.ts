import {
  BRAVE_DEFAULT_URL,
  defaultKeyEnv,
  EXA_DEFAULT_URL,
  type SearchBackend
} from '../../../shared/websearch'
import { abortableFetch } from '../../net/abortable-fetch'
import { version } from '../../version'

/** Where search keys come from: named environment variables, or the desktop's stored secrets. */
export interface SearchKeys {
  env: NodeJS.ProcessEnv
  readSecret?: (name: string) => string | undefined
}

/** A result as a backend gives it, before it gets a handle. */
export interface FoundResult {
  title: string
  url: string
  snippet: string
}

/** A backend that cannot run as configured (a missing key or URL): said so a person can fix it. */
export class BackendConfigError extends Error {}

function keyFor(
  backend: Extract<SearchBackend, { kind: 'exa' | 'brave' | 'http' }>,
  keys: SearchKeys
): string | undefined {
  if (backend.api_key_secret) {
    const stored = keys.readSecret?.(backend.api_key_secret)
    if (stored) return stored
  }
  const name = backend.api_key_env ?? defaultKeyEnv(backend.kind)
  return name ? keys.env[name] || undefined : undefined
}

function requireKey(
  backend: Extract<SearchBackend, { kind: 'brave' | 'http' }>,
  keys: SearchKeys
): string {
  const key = keyFor(backend, keys)
  if (key) return key
  const name = backend.api_key_env ?? defaultKeyEnv(backend.kind)
  throw new BackendConfigError(
    `no key: set the environment variable ${name} (or store a key in Settings → Search)`
  )
}

/** Runs one query against one backend; throws when it does not answer with results. */
export async function searchWith(
  backend: SearchBackend,
  query: string,
  count: number,
  keys: SearchKeys,
  signal: AbortSignal
): Promise<FoundResult[]> {
  switch (backend.kind) {
    case 'exa':
      return searchExa(backend, query, count, keys, signal)
    case 'brave': {
      const url = new URL(backend.url ?? BRAVE_DEFAULT_URL)
      url.searchParams.set('q', query)
      url.searchParams.set('count', String(count))
      const body = await getJson(url, { 'x-subscription-token': requireKey(backend, keys) }, signal)
      return resultsFrom(path(body, ['web', 'results']), count)
    }
    case 'searxng': {
      const url = searxngEndpoint(backend.url ?? keys.env.SEARXNG_URL?.trim())
      url.searchParams.set('q', query)
      url.searchParams.set('format', 'json')
      return resultsFrom(path(await getJson(url, {}, signal), ['results']), count)
    }
    case 'http': {
      const url = new URL(backend.url)
      const headers: Record<string, string> = {}
      if (backend.auth === 'bearer') headers.authorization = `Bearer ${requireKey(backend, keys)}`
      if (backend.auth === 'header') {
        headers[(backend.auth_header ?? 'x-api-key').toLowerCase()] = requireKey(backend, keys)
      }
      let form: URLSearchParams | undefined
      if (backend.method === 'post') form = new URLSearchParams({ [backend.query_param]: query })
      else url.searchParams.set(backend.query_param, query)
      const body = await getJson(url, headers, signal, form)
      const list = Array.isArray(body)
        ? body
        : (['results', 'items', 'data'].map((k) => path(body, [k])).find(Array.isArray) ??
          path(body, ['web', 'results']))
      return resultsFrom(list, count)
    }
  }
}

/** The JSON a backend answers: a GET, or a POST of `form` (form parameters) when given. */
async function getJson(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  form?: URLSearchParams
): Promise<unknown> {
  const response = await fetchNoRedirect(url, {
    headers: { accept: 'application/json', ...headers },
    signal,
    ...(form ? { method: 'POST', body: form } : {})
  })
  if (!response.ok) {
    await response.body?.cancel()
    throw new Error(
      `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
    )
  }
  const text = await response.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new Error('the answer was not JSON (for SearXNG, enable the json format in settings.yml)')
  }
}

/**
 * fetch that never follows a redirect. A search request carries its key (a header, a bearer
 * token, Exa's query parameter), and fetch keeps custom headers across a cross-origin redirect:
 * a 302 from a backend, or from whoever answers for its address, would hand the key to another
 * origin. A 3xx is that backend's failure, so the chain moves on to the next one.
 */
const fetchNoRedirect = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const response = await abortableFetch(url, { ...init, redirect: 'manual' })
  if (response.status < 300 || response.status > 399) return response
  await response.body?.cancel()
  throw new Error(`answered with a redirect (${redirectNote(response, url)}); ${NO_REDIRECTS}`)
}

const NO_REDIRECTS =
  'search backends never follow redirects, so set the backend URL to the address it leads to'

/** `HTTP 302 to https://host/path`, without the target's query (it may echo ours, key and all). */
function redirectNote(response: Response, from: string | URL): string {
  const location = response.headers.get('location')
  if (!location) return `HTTP ${response.status}`
  try {
    const target = new URL(location, from)
    return `HTTP ${response.status} to ${target.origin}${target.pathname === '/' ? '' : target.pathname}`
  } catch {
    return `HTTP ${response.status}`
  }
}

/**
 * A SearXNG instance's JSON search address, from its base address or its `/search` endpoint
 * (SEARXNG_URL may name either). A value that is not an address is said so without repeating it:
 * it may carry a password.
 */
function searxngEndpoint(base: string | undefined): URL {
  if (!base) throw new BackendConfigError('no URL: set one here, or the SEARXNG_URL variable')
  let parsed: URL
  try {
    parsed = new URL(base)
  } catch {
    parsed = new URL('about:blank')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BackendConfigError(
      'its URL is not an http(s) address; set it (or SEARXNG_URL) to the instance, such as https://search.example'
    )
  }
  if (!/\/search\/?$/.test(parsed.pathname)) {
    parsed.pathname = parsed.pathname.replace(/\/?$/, '/search')
  }
  return parsed
}

function path(value: unknown, keys: string[]): unknown {
  let at = value
  for (const key of keys) {
    if (typeof at !== 'object' || at === null) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Snippets often carry <strong> highlights and entities; the model and the card want text. */
function plain(value: string): string {
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

function resultsFrom(list: unknown, count: number): FoundResult[] {
  if (!Array.isArray(list)) throw new Error('the answer had no results array')
  return list
    .map((item: unknown) => ({
      title: plain(text(path(item, ['title']))),
      url: text(path(item, ['url'])) || text(path(item, ['link'])),
      snippet: plain(
        text(path(item, ['snippet'])) ||
          text(path(item, ['content'])) ||
          text(path(item, ['description'])) ||
          text(path(item, ['text']))
      ).slice(0, 500)
    }))
    .filter((r) => /^https?:\/\//i.test(r.url))
    .slice(0, count)
}

/**
 * Exa's public MCP endpoint: its `web_search_exa` tool over Streamable HTTP. The MCP client is
 * loaded by the first search that goes to Exa, not with the tool.
 */
async function searchExa(
  backend: Extract<SearchBackend, { kind: 'exa' }>,
  query: string,
  count: number,
  keys: SearchKeys,
  signal: AbortSignal
): Promise<FoundResult[]> {
  const url = new URL(backend.url ?? EXA_DEFAULT_URL)
  const key = keyFor(backend, keys)
  if (key) url.searchParams.set('exaApiKey', key)
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  ])
  const client = new Client({ name: 'mecatl', version })
  // The SDK follows same-origin redirects itself; every request goes through fetchNoRedirect,
  // which fails on any 3xx before the SDK can follow it.
  const transport = new StreamableHTTPClientTransport(url, { fetch: fetchNoRedirect })
  try {
    await client.connect(transport, { signal })
    const result = await client.callTool(
      { name: 'web_search_exa', arguments: { query, numResults: count } },
      undefined,
      { signal }
    )
    const content = Array.isArray(result.content) ? result.content : []
    const body = content.map((block: unknown) => text(path(block, ['text']))).join('\n')
    if (result.isError) throw new Error(body.slice(0, 300) || 'the search tool failed')
    return parseExaText(body, count)
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** Exa answers JSON (`{results: [...]}`) or blocks of `Title:` / `URL:` / `Text:` lines. */
export function parseExaText(body: string, count: number): FoundResult[] {
  try {
    const parsed = JSON.parse(body) as unknown
    return resultsFrom(Array.isArray(parsed) ? parsed : path(parsed, ['results']), count)
  } catch {
    // Not JSON: the line format below.
  }
  const results: FoundResult[] = []
  let current: FoundResult | null = null
  for (const line of body.split('\n')) {
    const field = /^(Title|URL|Text|Highlights|Summary):\s?(.*)$/i.exec(line.trim())
    if (field?.[1]?.toLowerCase() === 'title') {
      if (current) results.push(current)
      current = { title: field[2] ?? '', url: '', snippet: '' }
    } else if (current && field?.[1]?.toLowerCase() === 'url') {
      current.url = (field[2] ?? '').trim()
    } else if (current && field) {
      current.snippet = `${current.snippet} ${field[2] ?? ''}`.trim()
    } else if (current && line.trim() && current.snippet.length < 500) {
      current.snippet = `${current.snippet} ${line.trim()}`.trim()
    }
  }
  if (current) results.push(current)
  return resultsFrom(results, count)
}
