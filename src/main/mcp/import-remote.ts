import type { McpServerSettingsInput } from '../../shared/mcp'
import { mcpUrlSchema, SECRET_REFERENCE } from '../../shared/mcp-remote'

/** `${NAME}` and `${env:NAME}` in a header of .mcp.json: a variable of the environment. */
const VARIABLE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g
const SECRET_HEADER = /auth|token|key|secret|password|cookie|session|credential/i

/**
 * A remote server of a `.mcp.json` (`url`, `type` http/streamable-http or sse, `headers`) in our
 * settings, or null (with a note) when it cannot be used as it is. A header's `${VAR}` becomes
 * `${env:VAR}`; a credential written in clear is not copied: the header names a variable to set.
 */
export function remoteEntry(
  name: string,
  entry: Record<string, unknown>,
  notes: string[]
): McpServerSettingsInput | null {
  const url = String(entry.url)
  const checked = mcpUrlSchema.safeParse(url)
  if (!checked.success) {
    notes.push(
      `"${name}" was skipped: its url ${url} ${checked.error.issues[0]?.message ?? 'is not valid'}.`
    )
    return null
  }
  const type = typeof entry.type === 'string' ? entry.type : undefined
  const transport =
    type === 'sse' ? 'sse' : type === 'http' || type === 'streamable-http' ? 'http' : undefined
  if (type !== undefined && transport === undefined) {
    notes.push(`"${name}" was skipped: its type "${type}" is not http or sse.`)
    return null
  }
  const headers: Record<string, string> = {}
  const raw = typeof entry.headers === 'object' && entry.headers !== null ? entry.headers : {}
  for (const [header, value] of Object.entries(raw as Record<string, unknown>)) {
    const text = String(value)
    const referenced = text.replace(VARIABLE, (_whole, variable: string) => `\${env:${variable}}`)
    const literal = referenced.replace(SECRET_REFERENCE, '').trim()
    if (SECRET_HEADER.test(header) && literal !== '' && referenced === text) {
      const variable = `${name}_${header}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_')
      headers[header] = `\${env:${variable}}`
      notes.push(
        `"${name}": the header ${header} holds a credential, so it is not copied into settings; set ${variable} in the environment Mecatl starts in to the whole value of the header.`
      )
    } else {
      headers[header] = referenced
    }
  }
  return {
    name,
    url,
    ...(transport ? { transport } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {})
  }
}
