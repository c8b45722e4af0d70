import { parseArgs } from 'node:util'
import type { ApprovalMode } from '../../shared/domain'
import type { SessionProfile } from '../../shared/session-profile'

/** A mistake in how the CLI was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const usage = `Usage: npm run -s mecatl -- <command> [options]

Commands:
  tools [--json | --schema]            list the tools the model gets, with the MCP servers'
       [--workspace DIR]               of DIR (default: the current folder)
  call TOOL 'JSON' --workspace DIR     run one tool call through the gate and dispatcher
       [--mode allow|read-only|ask]
  run 'PROMPT' --workspace DIR         run a headless session until the model stops
       [--provider openai|anthropic] [--base-url URL] [--model ID]
       [--mode allow|read-only|ask] [--json]
       [--profile no-fs]               no-fs: no file, shell or delegation tools
  serve [--workspace DIR] [--port N]   start browser mode on 127.0.0.1
  rules check 'COMMAND' [--json]       the permission decision for a shell command, and why
       [--workspace DIR]
  memory search 'QUERY' [--user]       search the project memory of --workspace DIR (default:
       [--workspace DIR] [--json]      the current folder), or with --user the user model
  sessions list [--workspace DIR]      the recorded sessions of DIR (default: the current folder)
  sessions show ID [--json]            one session's transcript (an id prefix is enough)
  sessions export ID                   its events as JSONL (as run --json prints them) or Markdown
       [--format jsonl|md]
  checkpoints list [--session ID]      the checkpoints of --workspace DIR (default: the current
  checkpoints diff ID                  folder); what changed since one; put its files back
  checkpoints restore ID [--files PATH…] (a restore is itself undone by restoring the one it prints;
       [--yes]                         --yes replaces files changed outside the agent since)
  keys set NAME                        store a provider key under NAME (such as OPENAI_API_KEY)
                                       in the data folder's provider-keys.json (mode 0600): read
                                       from stdin, typed unseen at a terminal, never an argument
  keys list [--json]                   the names stored (never the keys), the file and its mode
  keys remove NAME                     forget one

A provider whose api_key_env (or api_key_secret) is the name of a stored key uses it when that
environment variable is not set; so do run's --provider and --base-url (OPENAI_API_KEY,
ANTHROPIC_API_KEY).

call and run take --yes: allow what the mode would ask a person about (never past a forbid or
prompt rule, read-only mode, or the interlock).

A project's own MCP servers (.mecatl/settings.yaml) run only once trusted in the window;
--trust-project runs them for this one command. A folder not trusted in the window is
untrusted: what is read from it counts as untrusted input (the interlock then refuses sends
the model aims); --trust-project also trusts the folder for this one command (nothing is stored).

--no-shell (or --shell "") leaves Shell and ShellStatus out of the catalog (tools, call, run
and serve), as \`shell: {enabled: false}\` in the settings does. --no-user-model leaves out the
user-model memory tools (RememberUser, RecallUser, SearchUserModel…), as
\`user_model: {enabled: false}\` does. --websearch=off leaves out WebSearch and WebOpen, as
\`websearch: {enabled: false}\` does. --no-skills leaves the Skill tool out, as
\`skills: {enabled: false}\` does; --skills-dir DIR adds a folder of skills that win every name
clash. --no-commands turns off the slash-command files (.mecatl/commands, .claude/commands and
yours); --commands-dir DIR adds a folder of them. AskUser is only offered where a person can
answer (serve), never in tools, call or run.

WebSearch uses Exa's public endpoint with no settings; EXA_API_KEY, BRAVE_API_KEY and
SEARXNG_URL in the environment add those services. --websearch-url URL adds a JSON search
service, tried first: the query goes as the URL parameter q (--websearch-query-param NAME), or
as a form parameter with --websearch-method post; the key in WEBSEARCH_API_KEY goes as a bearer
token, or in the header --websearch-auth-header NAME.

MECATL_LOG=debug prints what MCP servers write on stderr, each line tagged with its server.

Every command takes --config FILE (a settings file used instead of the user's) and honours
MECATL_HOME (where settings and state live).`

const options = {
  json: { type: 'boolean' },
  schema: { type: 'boolean' },
  workspace: { type: 'string' },
  mode: { type: 'string' },
  config: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  port: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'trust-project': { type: 'boolean' },
  'no-shell': { type: 'boolean' },
  'no-user-model': { type: 'boolean' },
  websearch: { type: 'string' },
  'no-skills': { type: 'boolean' },
  shell: { type: 'string' },
  'no-commands': { type: 'boolean' },
  'commands-dir': { type: 'string', multiple: true },
  'skills-dir': { type: 'string', multiple: true },
  'websearch-url': { type: 'string' },
  'websearch-auth-header': { type: 'string' },
  'websearch-query-param': { type: 'string' },
  'websearch-method': { type: 'string' },
  user: { type: 'boolean' },
  format: { type: 'string' },
  profile: { type: 'string' },
  session: { type: 'string' },
  files: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
} as const

export interface CliArgs {
  command: string | undefined
  positionals: string[]
  json: boolean
  schema: boolean
  workspace?: string
  mode?: ApprovalMode
  config?: string
  provider?: 'openai' | 'anthropic'
  baseUrl?: string
  model?: string
  port?: number
  /** Allow what the mode would ask a person about; never past forbid, prompt rules or the interlock. */
  yes: boolean
  /** Run the project's own MCP servers without the window's trust prompt (not remembered). */
  trustProject: boolean
  /** `--no-shell`: no Shell or ShellStatus tools. */
  noShell: boolean
  /** `--no-user-model`: no user-scope memory tools. */
  noUserModel: boolean
  /** `--websearch=off`: no WebSearch or WebOpen. */
  noWebsearch: boolean
  /** `--no-skills`: no Skill tool. */
  noSkills: boolean
  /** `--skills-dir DIR` (repeatable): the operator's skills, which win every name clash. */
  skillsDirs: string[]
  /** `--no-commands`: no slash-command files, only the built-in commands (and skills). */
  noCommands: boolean
  /** `--commands-dir DIR` (repeatable): more slash-command files. */
  commandsDirs: string[]
  /** `--websearch-url` and its flags, as given (checked against the environment by the core's launch). */
  websearchService?: WebsearchFlags
  /** `memory search --user`: the user model instead of the project's memory. */
  user: boolean
  /** `sessions export --format jsonl|md`. */
  format?: string
  /** `run --profile no-fs`: a session without file, shell or delegation tools. */
  profile?: SessionProfile
  /** `checkpoints list --session ID`. */
  session?: string
  /** `checkpoints restore ID --files PATH…`: the paths follow as positionals. */
  files: boolean
  help: boolean
}

/** The flags of the command line's JSON search service. */
export interface WebsearchFlags {
  url: string
  authHeader?: string
  queryParam?: string
  method: 'get' | 'post'
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  const mode = oneOf(approvalModes, values.mode)
  if (mode === null) {
    throw new UsageError(`--mode must be allow, read-only or ask (got "${values.mode}")`)
  }
  if (
    values.provider !== undefined &&
    values.provider !== 'openai' &&
    values.provider !== 'anthropic'
  ) {
    throw new UsageError(`--provider must be openai or anthropic (got "${values.provider}")`)
  }
  const profile = oneOf(sessionProfiles, values.profile)
  if (profile === null) {
    throw new UsageError(`--profile must be default or no-fs (got "${values.profile}")`)
  }
  if (values['no-commands'] && values['commands-dir']?.length) {
    throw new UsageError('--no-commands and --commands-dir contradict each other: drop one')
  }
  if (values['no-skills'] && values['skills-dir']?.length) {
    throw new UsageError('--no-skills and --skills-dir contradict each other: drop one')
  }
  let port: number | undefined
  if (values.port !== undefined) {
    port = Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be a port number from 0 to 65535 (got "${values.port}")`)
    }
  }
  return {
    command,
    positionals: rest,
    json: values.json ?? false,
    schema: values.schema ?? false,
    workspace: values.workspace,
    mode,
    config: values.config,
    provider: values.provider,
    baseUrl: values['base-url'],
    model: values.model,
    port,
    yes: values.yes ?? false,
    trustProject: values['trust-project'] ?? false,
    noShell: (values['no-shell'] ?? false) || shellFlag(values.shell),
    noUserModel: values['no-user-model'] ?? false,
    noWebsearch: websearchFlag(values.websearch),
    noSkills: values['no-skills'] ?? false,
    skillsDirs: values['skills-dir'] ?? [],
    noCommands: values['no-commands'] ?? false,
    commandsDirs: values['commands-dir'] ?? [],
    websearchService: websearchService(values),
    user: values.user ?? false,
    format: values.format,
    profile,
    session: values.session,
    files: values.files ?? false,
    help: values.help ?? false
  }
}

// The values of --mode and --profile, checked here by hand rather than with their zod schemas:
// `help` and a mistyped command line answer without loading zod. Keyed by the schemas' types, so
// a value added to or removed from a schema fails to compile until it is listed here too.
const approvalModes: Record<ApprovalMode, true> = { allow: true, 'read-only': true, ask: true }
const sessionProfiles: Record<SessionProfile, true> = { default: true, 'no-fs': true }

/** `value` when it is one of `values`' keys, undefined when not given, null when not one. */
function oneOf<Value extends string>(
  values: Record<Value, true>,
  value: string | undefined
): Value | undefined | null {
  if (value === undefined) return undefined
  return Object.hasOwn(values, value) ? (value as Value) : null
}

/** `--shell ""` is `--no-shell`; Shell always runs commands with bash, so nothing else is taken. */
function shellFlag(value: string | undefined): boolean {
  if (value === undefined) return false
  if (value === '') return true
  throw new UsageError(
    `--shell takes only "" (no Shell tool, as --no-shell); Shell runs its commands with bash (got "${value}")`
  )
}

function websearchFlag(value: string | undefined): boolean {
  if (value === undefined || value === 'on') return false
  if (value === 'off') return true
  throw new UsageError(`--websearch must be on or off (got "${value}")`)
}

// An HTTP header name is a token (RFC 9110 §5.6.2): anything else fetch would refuse at search time.
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function websearchService(values: {
  websearch?: string
  'websearch-url'?: string
  'websearch-auth-header'?: string
  'websearch-query-param'?: string
  'websearch-method'?: string
}): WebsearchFlags | undefined {
  const url = values['websearch-url']
  const given = (
    ['websearch-auth-header', 'websearch-query-param', 'websearch-method'] as const
  ).filter((flag) => values[flag] !== undefined)
  if (url === undefined) {
    if (given[0]) {
      throw new UsageError(
        `--${given[0]} configures the service of --websearch-url; give --websearch-url URL as well`
      )
    }
    return undefined
  }
  if (values.websearch === 'off') {
    throw new UsageError('--websearch=off and --websearch-url contradict each other: drop one')
  }
  if (!isHttpAddress(url)) {
    throw new UsageError(`--websearch-url must be an http:// or https:// address (got "${url}")`)
  }
  const method = values['websearch-method'] ?? 'get'
  if (method !== 'get' && method !== 'post') {
    throw new UsageError(`--websearch-method must be get or post (got "${method}")`)
  }
  const authHeader = values['websearch-auth-header']
  if (authHeader !== undefined && !headerName.test(authHeader)) {
    throw new UsageError(
      `--websearch-auth-header must be a header name, such as X-Api-Key (got "${authHeader}")`
    )
  }
  const queryParam = values['websearch-query-param']
  if (queryParam === '') throw new UsageError('--websearch-query-param needs a parameter name')
  return { url, authHeader, queryParam, method }
}

function isHttpAddress(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
