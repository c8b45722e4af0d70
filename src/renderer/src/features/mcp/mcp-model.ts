import type { Capabilities } from '../../../../shared/domain'
import { mcpServerSettingsSchema, type McpServerSettingsInput } from '../../../../shared/mcp'
import { readsAs } from '../settings'

/** A server as the form edits it: lists as text, one entry a line. */
export interface ServerDraft {
  name: string
  /** A program this machine runs (`command`), or a server at an address (`url`). */
  kind: 'command' | 'url'
  command: string
  url: string
  /** '' : streamable HTTP, falling back to the legacy SSE transport. */
  transport: '' | 'http' | 'sse'
  /** `Name: value`, one a line; secrets as `${env:NAME}` or `${secret:NAME}`. */
  headers: string
  /** `auto`: OAuth if the server asks for it (no `auth` in the file). */
  auth: 'auto' | 'none' | 'bearer' | 'oauth'
  /** The bearer token's reference: `${env:NAME}` or `${secret:NAME}`. */
  token: string
  /** OAuth: a client id registered for Mecatl ('' : Mecatl registers one), its secret's reference. */
  clientId: string
  clientSecret: string
  /** OAuth: the https address of a client ID metadata document ('' : none). */
  clientMetadataUrl: string
  /** OAuth scopes, separated by spaces ('' : what the server asks for). */
  scopes: string
  /** One argument a line, so arguments with spaces need no quoting. */
  args: string
  /** `NAME=value`, one a line. */
  env: string
  /** Names separated by spaces, commas or new lines. */
  passthrough: string
  prefixTools: boolean
  enabled: boolean
  sandbox: boolean
  /** `disclose: lazy`: its tools are sent to the model only once ToolSearch finds them. */
  lazyTools: boolean
  forceUntrusted: boolean
  forceDestructive: boolean
  forceEgress: Capabilities['egress']
}

export type DraftField =
  | 'name'
  | 'command'
  | 'url'
  | 'transport'
  | 'headers'
  | 'auth'
  | 'args'
  | 'env'
  | 'passthrough'
  | 'force'
  | 'sandbox'
export type DraftIssues = Partial<Record<DraftField, string>>

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** A free name for a new server: "server", then "server-2"… */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base
  let n = 2
  while (taken.includes(`${base}-${n}`)) n++
  return `${base}-${n}`
}

export function emptyDraft(taken: readonly string[]): ServerDraft {
  return {
    name: freeName('server', taken),
    kind: 'command',
    command: '',
    url: '',
    transport: '',
    headers: '',
    auth: 'auto',
    token: '',
    clientId: '',
    clientSecret: '',
    clientMetadataUrl: '',
    scopes: '',
    args: '',
    env: '',
    passthrough: '',
    prefixTools: true,
    enabled: true,
    sandbox: false,
    lazyTools: false,
    forceUntrusted: false,
    forceDestructive: false,
    forceEgress: 'none'
  }
}

/**
 * The user's servers as the list shows them, read leniently so one the schema does not read
 * still shows (and can be edited or removed); one entry per entry of the draft's list.
 */
export function serversOf(entries: readonly unknown[]): Record<string, unknown>[] {
  return entries.map((entry) => (isRecord(entry) ? entry : {}))
}

export function serverName(server: unknown): string {
  return isRecord(server) ? text(server.name) : ''
}

/** A configured server as the form shows it. */
export function draftFromSettings(entry: unknown): ServerDraft {
  const server = isRecord(entry) ? entry : {}
  const env = isRecord(server.env) ? server.env : {}
  const force = isRecord(server.force) ? server.force : {}
  const egress = force.egress
  const headers = isRecord(server.headers) ? server.headers : {}
  const auth = isRecord(server.auth) ? server.auth : {}
  const transport = server.transport
  return {
    name: text(server.name),
    kind: typeof server.url === 'string' && server.command === undefined ? 'url' : 'command',
    command: text(server.command),
    url: text(server.url),
    transport: transport === 'http' || transport === 'sse' ? transport : '',
    headers: Object.entries(headers)
      .map(([key, value]) => `${key}: ${text(value)}`)
      .join('\n'),
    auth:
      auth.type === 'bearer' || auth.type === 'oauth' || auth.type === 'none' ? auth.type : 'auto',
    token: text(auth.token),
    clientId: text(auth.client_id),
    clientSecret: text(auth.client_secret),
    clientMetadataUrl: text(auth.client_metadata_url),
    scopes: strings(auth.scopes).join(' '),
    args: strings(server.args).join('\n'),
    env: Object.entries(env)
      .map(([key, value]) => `${key}=${text(value)}`)
      .join('\n'),
    passthrough: strings(server.env_passthrough).join(' '),
    prefixTools: server.prefix_tools !== false,
    enabled: server.enabled !== false,
    sandbox: server.sandbox === true,
    lazyTools: server.disclose === 'lazy',
    forceUntrusted: force.untrustedInput === true,
    forceDestructive: force.destructive === true,
    forceEgress: egress === 'blind' || egress === 'chosen' ? egress : 'none'
  }
}

function lines(value: string): string[] {
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

const fieldOfKey: Record<string, DraftField> = {
  name: 'name',
  command: 'command',
  url: 'url',
  transport: 'transport',
  headers: 'headers',
  auth: 'auth',
  args: 'args',
  env: 'env',
  env_passthrough: 'passthrough',
  force: 'force',
  sandbox: 'sandbox'
}

/** What the form's fields and switches write; any other key of a server is kept as it was. */
const formKeys = new Set([...Object.keys(fieldOfKey), 'prefix_tools', 'enabled', 'disclose'])

/**
 * What the form does not show of the server it edits (the tools switched off, a sandboxed
 * server's network): kept, so saving the form loses nothing. A server turned into a remote one
 * leaves behind what only a local program has.
 */
function unshownKeys(previous: unknown, kind: ServerDraft['kind']): Record<string, unknown> {
  if (typeof previous !== 'object' || previous === null || Array.isArray(previous)) return {}
  return Object.fromEntries(
    Object.entries(previous).filter(
      ([key]) => !formKeys.has(key) && !(kind === 'url' && key === 'network')
    )
  )
}

/**
 * The settings-file shape of a draft, checked with the same schema the main process uses, so
 * problems show beside their fields before anything is saved. Defaults are left out of the file.
 * `previous`: the server as the settings held it before this edit, for what the form leaves out.
 */
export function draftToSettings(
  draft: ServerDraft,
  otherNames: readonly string[],
  previous: unknown = null
): { ok: true; value: McpServerSettingsInput } | { ok: false; issues: DraftIssues } {
  const issues: DraftIssues = {}
  const value: Record<string, unknown> = { name: draft.name.trim() }
  if (draft.kind === 'url') Object.assign(value, remoteValue(draft, issues))
  else Object.assign(value, localValue(draft, issues))
  if (!draft.prefixTools) value.prefix_tools = false
  if (!draft.enabled) value.enabled = false
  if (draft.lazyTools) value.disclose = 'lazy'
  const force: Record<string, unknown> = {}
  if (draft.forceUntrusted) force.untrustedInput = true
  if (draft.forceDestructive) force.destructive = true
  if (draft.forceEgress !== 'none') force.egress = draft.forceEgress
  if (Object.keys(force).length > 0) value.force = force
  Object.assign(value, unshownKeys(previous, draft.kind))

  const parsed = mcpServerSettingsSchema.safeParse(value)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfKey[String(issue.path[0])]
      if (!field) {
        // No field of the form holds it: said beside the name, so the form never refuses in silence.
        issues.name ??= `${issue.path.map(String).join('.')}: ${issue.message}`
        continue
      }
      const keyed = (field === 'env' || field === 'headers') && issue.path.length > 1
      const where = keyed ? `${String(issue.path[1])}: ` : ''
      issues[field] ??= `${where}${issue.message}`
    }
  }
  const name = draft.name.trim()
  if (!issues.name && otherNames.includes(name)) {
    issues.name = `a server named "${name}" exists already; pick another name`
  }
  if (Object.keys(issues).length > 0 || !readsAs(mcpServerSettingsSchema, value)) {
    return { ok: false, issues }
  }
  return { ok: true, value }
}

/** The settings of a program this machine runs. */
function localValue(draft: ServerDraft, issues: DraftIssues): Record<string, unknown> {
  const env: Record<string, string> = {}
  lines(draft.env).forEach((line, i) => {
    const at = line.indexOf('=')
    if (at <= 0) {
      issues.env ??= `line ${i + 1}: write NAME=value`
      return
    }
    env[line.slice(0, at).trim()] = line.slice(at + 1)
  })
  const value: Record<string, unknown> = { command: draft.command.trim(), args: lines(draft.args) }
  if (Object.keys(env).length > 0) value.env = env
  const passthrough = draft.passthrough.split(/[\s,]+/).filter((name) => name !== '')
  if (passthrough.length > 0) value.env_passthrough = passthrough
  if (draft.sandbox) value.sandbox = true
  return value
}

/** The settings of a server at an address. */
function remoteValue(draft: ServerDraft, issues: DraftIssues): Record<string, unknown> {
  const headers: Record<string, string> = {}
  lines(draft.headers).forEach((line, i) => {
    const at = line.indexOf(':')
    if (at <= 0) {
      issues.headers ??= `line ${i + 1}: write Name: value`
      return
    }
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  })
  const value: Record<string, unknown> = { url: draft.url.trim() }
  if (draft.transport !== '') value.transport = draft.transport
  if (Object.keys(headers).length > 0) value.headers = headers
  if (draft.auth === 'none') value.auth = { type: 'none' }
  if (draft.auth === 'bearer') value.auth = { type: 'bearer', token: draft.token.trim() }
  if (draft.auth === 'oauth') {
    const oauth: Record<string, unknown> = { type: 'oauth' }
    if (draft.clientId.trim()) oauth.client_id = draft.clientId.trim()
    if (draft.clientSecret.trim()) oauth.client_secret = draft.clientSecret.trim()
    if (draft.clientMetadataUrl.trim()) oauth.client_metadata_url = draft.clientMetadataUrl.trim()
    const scopes = draft.scopes.split(/\s+/).filter((scope) => scope !== '')
    if (scopes.length > 0) oauth.scopes = scopes
    value.auth = oauth
  }
  return value
}

/**
 * Imported servers to add after the configured ones: a name already taken is left out, and
 * said, as is a server the schema does not read (with why).
 */
export function mergeImported(
  entries: readonly unknown[],
  imported: readonly unknown[]
): { servers: McpServerSettingsInput[]; added: string[]; skipped: string[]; unread: string[] } {
  const taken = new Set(entries.map(serverName))
  const servers: McpServerSettingsInput[] = []
  const skipped: string[] = []
  const unread: string[] = []
  for (const server of imported) {
    const name = serverName(server)
    if (taken.has(name)) {
      skipped.push(name)
    } else if (readsAs(mcpServerSettingsSchema, server)) {
      servers.push(server)
      taken.add(name)
    } else {
      const why = mcpServerSettingsSchema.safeParse(server).error?.issues[0]?.message
      unread.push(`${name || 'a server without a name'} (${why ?? 'not a server'})`)
    }
  }
  return { servers, added: servers.map(serverName), skipped, unread }
}

/** Save issues about the server at `index` (paths like `mcp.2.command`), per form field. */
export function placeServerIssues(
  issues: readonly { path: string; message: string }[],
  index: number
): DraftIssues {
  const placed: DraftIssues = {}
  for (const issue of issues) {
    const parts = issue.path.split('.')
    if (parts[0] !== 'mcp' || parts[1] !== String(index)) continue
    const field = fieldOfKey[parts[2] ?? 'name']
    if (field) placed[field] ??= issue.message
  }
  return placed
}
