import { z } from 'zod'

const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, not a key')

/** Exa's public MCP endpoint: anonymous, or the paid tier with a key. */
export const EXA_DEFAULT_URL = 'https://mcp.exa.ai/mcp'
export const BRAVE_DEFAULT_URL = 'https://api.search.brave.com/res/v1/web/search'

// Keys are never written here: only the name of the variable (or stored secret) that holds one.
const keyFields = {
  api_key_env: envVarName.optional(),
  api_key_secret: z.string().min(1).optional()
}

export const searchBackendSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('exa'),
      enabled: z.boolean().default(true),
      url: z.url().optional(),
      ...keyFields
    })
    .strict(),
  z
    .object({
      kind: z.literal('brave'),
      enabled: z.boolean().default(true),
      url: z.url().optional(),
      ...keyFields
    })
    .strict(),
  z
    .object({
      kind: z.literal('searxng'),
      enabled: z.boolean().default(true),
      /** The instance's base URL; unset, the SEARXNG_URL environment variable names it. */
      url: z.url().optional()
    })
    .strict(),
  z
    .object({
      kind: z.literal('http'),
      enabled: z.boolean().default(true),
      url: z.url(),
      query_param: z.string().min(1).default('q'),
      /** `get`: the query as a URL parameter; `post`: as a form parameter in the body. */
      method: z.enum(['get', 'post']).default('get'),
      /** How the key is sent: `Authorization: Bearer`, a named header, or not at all. */
      auth: z.enum(['none', 'bearer', 'header']).default('bearer'),
      auth_header: z.string().min(1).optional(),
      ...keyFields
    })
    .strict()
])
export type SearchBackend = z.infer<typeof searchBackendSchema>
export type SearchBackendKind = SearchBackend['kind']

export const websearchSettingsSchema = z
  .object({
    /** `enabled: false` (or `--websearch=off`) removes WebSearch and WebOpen. */
    enabled: z.boolean().default(true),
    /** Tried in order; the first that answers wins. */
    backends: z.array(searchBackendSchema).default([]),
    /**
     * After the listed backends: those the environment names (EXA_API_KEY, BRAVE_API_KEY,
     * SEARXNG_URL), then Exa's public endpoint, used anonymously. A kind listed above (even
     * turned off) is not added again. `false`: only the listed ones (and `--websearch-url`).
     */
    defaults: z.boolean().default(true),
    timeout_ms: z.number().int().min(1000).max(120_000).default(15_000),
    max_concurrent: z.number().int().min(1).max(16).default(2)
  })
  .strict()
export type WebsearchSettings = z.infer<typeof websearchSettingsSchema>

export const websearchDefaults: WebsearchSettings = {
  enabled: true,
  backends: [],
  defaults: true,
  timeout_ms: 15_000,
  max_concurrent: 2
}

/** One search result; `handle` is what WebOpen takes. */
export const searchResultSchema = z.object({
  handle: z.string(),
  title: z.string(),
  url: z.string(),
  snippet: z.string()
})
export type SearchResult = z.infer<typeof searchResultSchema>

/** The key variable each backend reads when none is named. */
export function defaultKeyEnv(kind: SearchBackendKind): string | null {
  switch (kind) {
    case 'exa':
      return 'EXA_API_KEY'
    case 'brave':
      return 'BRAVE_API_KEY'
    case 'http':
      return 'WEBSEARCH_API_KEY'
    default:
      return null
  }
}

/**
 * A short name for a backend in messages: `searxng (https://search.example)`. The label reaches
 * the model with every result, so an address's user, password and query (where a key may sit)
 * are left out of it.
 */
export function backendLabel(backend: SearchBackend): string {
  return backend.url ? `${backend.kind} (${shownAddress(backend.url)})` : backend.kind
}

function shownAddress(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password && !parsed.search) return url
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return 'an address that is not a URL'
  }
}
