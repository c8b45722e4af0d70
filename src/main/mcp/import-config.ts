import { refusedPassthrough, type McpServerSettingsInput } from '../../shared/mcp'
import { remoteEntry } from './import-remote'

export interface ImportResult {
  servers: McpServerSettingsInput[]
  /** What was changed or left out, in sentences for the person importing. */
  notes: string[]
}

// Values under names like these are secrets: they stay in the environment, not in settings.
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A name our settings accept: letters, digits, "_" and "-", no "__", at most 40 long. */
export function settingsName(raw: string): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40)
  return cleaned || 'server'
}

/**
 * Reads the `mcpServers` map of a Claude Desktop `claude_desktop_config.json` or a project
 * `.mcp.json` (VS Code's `servers` map too) into our server settings: programs and remote servers
 * (`url`, with `type` http or sse). Secret-looking variables become passthrough names, and
 * secrets in headers references to variables, so their values are never written into the
 * settings file.
 */
export function importMcpServers(text: string, source: string): ImportResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw new Error(`${source} is not valid JSON (${why}); paste the whole file`, { cause: error })
  }
  const map = isRecord(parsed) ? (parsed.mcpServers ?? parsed.servers) : undefined
  if (!isRecord(map)) {
    throw new Error(
      `${source} has no "mcpServers" object; give a claude_desktop_config.json or a .mcp.json`
    )
  }
  const servers: McpServerSettingsInput[] = []
  const notes: string[] = []
  for (const [rawName, entry] of Object.entries(map)) {
    if (!isRecord(entry)) {
      notes.push(`"${rawName}" was skipped: its entry is not an object.`)
      continue
    }
    const name = settingsName(rawName)
    if (name !== rawName)
      notes.push(`"${rawName}" was renamed "${name}" (letters, digits, - and _).`)
    if (typeof entry.url === 'string' && entry.command === undefined) {
      const remote = remoteEntry(name, entry, notes)
      if (remote) servers.push(remote)
      continue
    }
    if (typeof entry.command !== 'string' || entry.command === '') {
      notes.push(`"${rawName}" was skipped: it has neither a command to run nor a url.`)
      continue
    }
    const args = Array.isArray(entry.args) ? entry.args.map(String) : []
    const env: Record<string, string> = {}
    const passthrough: string[] = []
    if (isRecord(entry.env)) {
      for (const [key, value] of Object.entries(entry.env)) {
        if (SECRET_NAME.test(key) && refusedPassthrough(key) === null) {
          passthrough.push(key)
          notes.push(
            `"${name}": ${key} looks like a secret, so it is passed through from your environment rather than written into settings; set ${key} in the environment Mecatl starts in.`
          )
        } else {
          env[key] = String(value)
        }
      }
    }
    servers.push({ name, command: entry.command, args, env, env_passthrough: passthrough })
  }
  if (servers.length === 0 && notes.length === 0) notes.push(`${source} lists no servers.`)
  return { servers, notes }
}
