import { z } from 'zod'

/**
 * A reference in a header's value to a secret kept outside the settings file: `${env:NAME}` (an
 * environment variable of the app) or `${secret:NAME}` (a key stored with `mecatl keys set NAME`
 * or typed into Settings, kept in the OS keychain or the 0600 key file).
 */
export const SECRET_REFERENCE = /\$\{(env|secret):([A-Za-z_][A-Za-z0-9_]*)\}/g

export interface SecretReference {
  from: 'env' | 'secret'
  name: string
}

/** The references a value makes, in order. */
export function secretReferences(value: string): SecretReference[] {
  return [...value.matchAll(SECRET_REFERENCE)].map((match) => ({
    from: match[1] as 'env' | 'secret',
    name: match[2] as string
  }))
}

/** Headers the transport sets itself: a setting could only break the protocol with them. */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'transfer-encoding'
])

/** Header (and query parameter) names whose values are credentials, so never written in clear. */
const SECRET_NAME = /auth|token|key|secret|password|passwd|cookie|session|credential|signature/i

/** Why `name` cannot be a header of the settings, or null when it can. */
function headerNameProblem(name: string): string | null {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
    return 'must be an HTTP header name (letters, digits, "-")'
  }
  if (TRANSPORT_HEADERS.has(name.toLowerCase())) {
    return 'this header belongs to the MCP transport, which sets it; remove it'
  }
  return null
}

const INLINE = (what: string): string =>
  `${what} carries a credential, so it is never written in the settings file in clear: keep it in an environment variable and write \${env:NAME}, or store it with \`mecatl keys set NAME\` (or in Settings) and write \${secret:NAME}`

/** Static headers sent with every request; credentials only by reference (see SECRET_REFERENCE). */
export const mcpHeadersSchema = z
  .record(z.string(), z.string().regex(/^[^\r\n]*$/, 'a header value is one line'))
  .superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      const problem = headerNameProblem(name)
      if (problem) {
        ctx.addIssue({ code: 'custom', path: [name], message: problem })
        continue
      }
      const literal = value.replace(SECRET_REFERENCE, '').trim()
      const referenced = secretReferences(value).length > 0
      if (SECRET_NAME.test(name) && !referenced && literal !== '') {
        ctx.addIssue({ code: 'custom', path: [name], message: INLINE(`the header ${name}`) })
      }
    }
  })

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * A remote server's address: https, or plain http only to this machine (127.0.0.0/8, ::1,
 * localhost), since anything else on the way could read the tokens; no credentials in it.
 */
export const mcpUrlSchema = z.string().superRefine((text, ctx) => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a full address such as https://mcp.example.com/mcp'
    })
    return
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    ctx.addIssue({
      code: 'custom',
      message:
        url.protocol === 'http:'
          ? 'must use https: plain http is allowed only to this machine (localhost, 127.0.0.1, [::1]), since anyone on the way could read its requests and tokens'
          : `must be an https address, not ${url.protocol}`
    })
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: INLINE('a user name or password in the address') })
  }
  for (const name of url.searchParams.keys()) {
    if (SECRET_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `${INLINE(`the query parameter ${name}`)}, sent as a header (headers: { Name: "\${env:NAME}" })`
      })
    }
  }
})

/** A whole value that is one reference, `${env:NAME}` or `${secret:NAME}` (see SECRET_REFERENCE). */
const reference = (what: string) =>
  z.string().refine((value) => /^\$\{(env|secret):[A-Za-z_][A-Za-z0-9_]*\}$/.test(value), {
    message: `give ${what} as a reference, \${env:NAME} or \${secret:NAME}: it is never written in clear`
  })

/**
 * How a remote server is authorized: not at all, a bearer token by reference, or OAuth as the
 * MCP authorization specification describes it (sign-in in the browser; a client id registered
 * with the server beforehand, else registered by Mecatl). Unset: OAuth if the server asks for it.
 */
export const mcpAuthSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }).strict(),
  z
    .object({
      type: z.literal('bearer'),
      /** The token, by reference: `${env:NAME}` or `${secret:NAME}`. */
      token: reference('the token')
    })
    .strict(),
  z
    .object({
      type: z.literal('oauth'),
      /** A client id the server's owner registered for Mecatl; unset: Mecatl registers one. */
      client_id: z.string().min(1).optional(),
      /** Its secret, by reference (a confidential client); most desktop clients have none. */
      client_secret: reference('the client secret').optional(),
      /**
       * The https address of a client ID metadata document describing Mecatl (its redirect
       * `http://127.0.0.1/callback`), used as the client id where the authorization server takes
       * such documents; elsewhere Mecatl registers itself as without it.
       */
      client_metadata_url: z
        .url({ protocol: /^https$/, error: 'give the https address of the metadata document' })
        .refine((url) => !URL.canParse(url) || new URL(url).pathname !== '/', {
          message: 'the address needs a path to the document, not just the host'
        })
        .optional(),
      /** Scopes to ask for; unset: what the server says it needs. */
      scopes: z.array(z.string().min(1)).optional()
    })
    .strict()
    .refine((auth) => auth.client_secret === undefined || auth.client_id !== undefined, {
      message: 'a client_secret needs the client_id it belongs to',
      path: ['client_secret']
    })
    .refine((auth) => auth.client_id === undefined || auth.client_metadata_url === undefined, {
      message: 'give either a client_id or a client_metadata_url, not both',
      path: ['client_metadata_url']
    })
])
export type McpAuth = z.infer<typeof mcpAuthSchema>

/** The transports of a remote server; unset, streamable HTTP with the legacy SSE as fallback. */
export const mcpTransports = ['http', 'sse'] as const
